import type { ContractProblem, ContractResult, SourceLocation } from './contract-result.js';
import type { ContractsReport } from './run-contracts.js';

// Human output: one line per pair, then each disagreement with both sides' file:line.

function where(location: SourceLocation): string {
  return location.line === undefined ? location.file : `${location.file}:${location.line}`;
}

function renderProblem(problem: ContractProblem): string[] {
  return [
    `    - ${problem.message}`,
    `      producer ${where(problem.producer)}`,
    `      consumer ${where(problem.consumer)}`,
  ];
}

function renderResult(result: ContractResult, verbose: boolean): string[] {
  const status = result.skipped ? 'skip' : result.ok ? 'ok  ' : 'FAIL';
  const lines = [`${status} ${result.pair}: ${result.title}`];
  for (const problem of result.problems) lines.push(...renderProblem(problem));
  if (result.skipped || verbose) for (const note of result.notes) lines.push(`    ${note}`);
  return lines;
}

// Pure: the report as text for a terminal.
export function renderContractsReport(
  report: ContractsReport,
  { verbose = false }: { verbose?: boolean } = {},
): string {
  const failed = report.results.filter((result) => !result.ok);
  const skipped = report.results.filter((result) => result.skipped);
  const agreeing = report.results.length - failed.length - skipped.length;
  const lines = report.results.flatMap((result) => renderResult(result, verbose));
  const summary =
    failed.length === 0
      ? `contracts: ${agreeing} pairs agree${skipped.length > 0 ? `, ${skipped.length} skipped` : ''}`
      : `contracts: ${failed.length} of ${report.results.length} pairs disagree: ${failed.map((result) => result.pair).join(', ')}`;
  return `${[...lines, summary].join('\n')}\n`;
}
