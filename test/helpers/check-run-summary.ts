import { expect } from 'vitest';
import type { DataFile } from '../../src/artifacts/index.js';

// Holds a printed end-of-run summary (docs/summary.md) to the run's data.json, computed here without the product's
// summary code: each figure is parsed back out of the text and compared with data.json's own, the parts must add up
// as printed, the critical path's nodes come from the timeline's lanes, and the biggest overrun is found again from
// the targets' records and planned slots. Shared by the unit tests (fixtures) and the box run (harness-rotation).

/** `10.59s`, `0.006s`, `4m05s`, `1h02m03s`, optionally signed, or `±0` → seconds, and the step it was printed at. */
function parseShownSeconds(text: string): { seconds: number; step: number } {
  if (text === '±0') return { seconds: 0, step: 0.01 };
  const match = /^([+-]?)(?:(\d+)h)?(?:(\d+)m)?(\d+(?:\.(\d+))?)s$/.exec(text);
  if (!match) throw new Error(`not a duration as rocm-perf prints one: ${JSON.stringify(text)}`);
  const [, sign, h, m, s, decimals] = match;
  const seconds = Number(h ?? 0) * 3600 + Number(m ?? 0) * 60 + Number(s);
  return { seconds: sign === '-' ? -seconds : seconds, step: 10 ** -(decimals?.length ?? 0) };
}

/** A printed figure is the raw one rounded at its step (half a step, and a hair for binary rounding). */
function expectShown(text: string, raw: number, what: string): number {
  const { seconds, step } = parseShownSeconds(text);
  expect(Math.abs(seconds - raw), `${what}: printed ${text}, data.json ${raw}`).toBeLessThanOrEqual(
    step / 2 + 1e-9,
  );
  return seconds;
}

/** The three printed figures add up to the last digit: whole = part + difference. */
function expectAddsUp(whole: string, part: string, difference: string, what: string): void {
  const [a, b, c] = [whole, part, difference].map((text) => parseShownSeconds(text).seconds);
  expect(Math.abs(a! - (b! + c!)), `${what}: ${whole} = ${part} ${difference}`).toBeLessThan(1e-6);
}

/** The rows of the text summary: label → its lines (first, then the continuation lines). */
function parseSummaryRows(text: string): { headline: string; rows: Map<string, string[]> } {
  const lines = text.split('\n').filter((line) => line !== '');
  const start = lines.findIndex((line) => line.startsWith('── rocm-perf '));
  expect(start, `no summary headline in:\n${text}`).toBeGreaterThanOrEqual(0);
  const headline = lines[start]!;
  const rows = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of lines.slice(start + 1)) {
    const labelled = /^([a-z][a-z ]*[a-z])\s{2,}(\S.*)$/.exec(line);
    if (labelled) rows.set(labelled[1]!, (current = [labelled[2]!]));
    else if (/^\s+\S/.test(line) && current) current.push(line.trim());
    else break;
  }
  return { headline, rows };
}

/** Which node's lane each target's bands are drawn in (data.json's timeline, apart from summary.targets). */
function readTimelineNodes(data: DataFile): Map<string, string> {
  return new Map(data.timeline.bands.map((band) => [band.target, band.node]));
}

/** The biggest overrun found again: each ok target's record against its planned finish − start. */
export function findBiggestOverrun(data: DataFile) {
  let worst: { target: string; node: string; total: number; planned: number; over: number } | undefined;
  for (const t of data.summary.targets) {
    if (t.status !== 'ok' || t.totalSeconds === null) continue;
    if (t.plannedStartSeconds === null || t.plannedFinishSeconds === null) continue;
    const planned = t.plannedFinishSeconds - t.plannedStartSeconds;
    const over = t.totalSeconds - planned;
    if (!worst || over > worst.over)
      worst = { target: t.target, node: t.node, total: t.totalSeconds, planned, over };
  }
  return worst !== undefined && worst.over > 0.005 ? worst : undefined;
}

function checkMakespan(row: string, data: DataFile): void {
  const { makespanSeconds, plannedMakespanSeconds, lowerBoundSeconds } = data.summary;
  if (data.run.status !== 'completed') {
    expect(row, 'a partial makespan is not compared with the plan').toMatch(/not comparable with the plan/);
    expect(row).toMatch(new RegExp(`\\(partial: the run (was )?${data.run.status}\\)`));
    return;
  }
  const match =
    /^(\S+)(?: ⚠ partial \(([^)]*)\))? = plan (\S+) ([+-]\S+|±0) = lower bound (\S+) ([+-]\S+|±0)$/.exec(row);
  expect(match, `makespan row: ${row}`).not.toBeNull();
  const [, measured, partial, plan, overPlan, bound, overBound] = match!;
  expect(partial?.split(', ') ?? [], 'the trace files that leave the makespan partial').toEqual(
    data.summary.partial,
  );
  expectShown(measured!, makespanSeconds!, 'makespan');
  expectShown(plan!, plannedMakespanSeconds!, 'planned makespan');
  expectShown(bound!, lowerBoundSeconds!, 'lower bound');
  expectAddsUp(measured!, plan!, overPlan!, 'makespan against the plan');
  expectAddsUp(measured!, bound!, overBound!, 'makespan against the lower bound');
}

function checkForecast(lines: readonly string[], data: DataFile): void {
  const forecast = data.summary.forecast;
  if (!forecast?.banded || !forecast.planned) {
    expect(lines[0]).toMatch(/^no band yet: /);
    if (forecast) expect(lines[0]).toContain(`${forecast.thinTargets.length} target`);
    expect(lines.join('\n'), 'no figure is made up without a band').not.toMatch(/percentile|p10/);
    return;
  }
  const band = /\(p10 (\S+) · p50 (\S+) · p90 (\S+)\)/.exec(lines[0]!);
  expect(band, lines[0]).not.toBeNull();
  expectShown(band![1]!, forecast.planned.p10, 'p10');
  expectShown(band![2]!, forecast.planned.p50, 'p50');
  expectShown(band![3]!, forecast.planned.p90, 'p90');
  if (forecast.percentile === null) expect(lines[0]).toMatch(/^no percentile: /);
  else
    expect(lines[0]).toMatch(
      new RegExp(`^landed at percentile ${Math.round(forecast.percentile)} of its band`),
    );
  if (forecast.outside === 'above') expect(lines[0]).toContain('far above');
  for (const culprit of forecast.culprits) expect(lines[1]).toContain(culprit.target);
}

function checkCriticalPath(lines: readonly string[], data: DataFile): void {
  const { measured, measuredSeconds, planned } = data.summary.criticalPath;
  const nodes = readTimelineNodes(data);
  const chain = measured.map((target) => `${target} (${nodes.get(target)})`).join(' → ');
  const match = /^(\S+)(?: ⚠ partial \([^)]*\))?(?: \(of what ran: [^)]*\))?: (.*)$/.exec(lines[0]!);
  expect(match, lines[0]).not.toBeNull();
  expectShown(match![1]!, measuredSeconds!, 'critical path seconds');
  expect(match![2]).toBe(chain);
  const same = planned.join(' → ') === measured.join(' → ');
  if (planned.length === 0)
    expect(lines[1]).toBe(`planned: ${data.run.hasPlanFile ? 'none recorded in plan.json' : 'no plan.json'}`);
  else expect(lines[1]).toBe(`planned: ${same ? 'the same' : planned.join(' → ')}`);
}

function checkOverrun(lines: readonly string[], data: DataFile): void {
  const worst = findBiggestOverrun(data);
  if (!worst) {
    expect(lines[0]).toMatch(/^none: /);
    return;
  }
  const match =
    /^(\S+) on (\S+)(?:, planned on \S+)?: (\S+) = planned (\S+) ([+-]\S+|±0) \(\d+% over\)$/.exec(lines[0]!);
  expect(match, lines[0]).not.toBeNull();
  const [, target, node, actual, planned, over] = match!;
  expect({ target, node }).toEqual({ target: worst.target, node: worst.node });
  expectShown(actual!, worst.total, `${target} record`);
  expectShown(planned!, worst.planned, `${target} planned`);
  expectAddsUp(actual!, planned!, over!, `${target} overrun`);
  const why = data.summary.targets.find((t) => t.target === worst.target)?.why ?? null;
  const cause = why?.cause;
  if (data.run.harness === 'cold' || why === null || why.firstMiss === null || !cause)
    expect(lines[1]).toMatch(/^why: not known — /);
  else {
    expect(lines[1]).toMatch(/^why: (?!not known)/);
    expect(lines[1]).toContain(target);
    if (cause.kind === 'dependency-rebuilt') for (const dep of cause.targets) expect(lines[1]).toContain(dep);
    if (cause.kind === 'unknown') expect(lines[1]).toContain('cause unknown (not recorded: ');
  }
}

function checkWarnings(lines: readonly string[], data: DataFile): void {
  const loud = data.summary.warnings.filter((w) => w.level === 'loud');
  const notes = data.summary.warnings.length - loud.length;
  if (loud.length === 0) expect(lines[0]).toMatch(/^none loud/);
  else expect(lines[0]).toMatch(new RegExp(`^${loud.length} loud`));
  if (notes > 0) expect(lines[0]).toContain(`${notes} note`);
  expect(lines.slice(1)).toEqual(loud.map((w) => `WARNING: ${w.message}`));
}

export interface ExpectedPlaces {
  runDir: string;
  serveUrl: string;
  exitCode: number;
}

/** The printed summary says what data.json says; returns its rows (for the markdown check). */
export function expectSummaryMatchesData(
  text: string,
  data: DataFile,
  places: ExpectedPlaces,
): Map<string, string[]> {
  const { headline, rows } = parseSummaryRows(text);
  const ok = data.summary.targets.filter((t) => t.status === 'ok').length;
  expect(headline).toBe(
    `── rocm-perf ${data.run.harness} ${data.run.stamp}: ${data.run.status} (exit ${places.exitCode}), ${ok} of ${data.summary.targets.length} targets ok`,
  );
  checkMakespan(rows.get('makespan')![0]!, data);
  checkForecast(rows.get('forecast')!, data);
  checkCriticalPath(rows.get('critical path')!, data);
  checkOverrun(rows.get('biggest overrun')!, data);
  checkWarnings(rows.get('warnings')!, data);
  expect(rows.get('report')![0]).toBe(`${places.runDir}/report.md (the page: ${places.runDir}/index.html)`);
  expect(rows.get('serve')![0]).toMatch(
    new RegExp(`^${places.serveUrl.replace(/[.?*+()[\]]/g, '\\$&')} \\(while \`rocm-perf serve --root `),
  );
  return rows;
}

/** The markdown carries the same rows as the text: a bullet per row, its continuation lines nested. */
export function expectMarkdownMatchesRows(
  markdown: string,
  headline: string,
  rows: ReadonlyMap<string, string[]>,
): void {
  const inert = (line: string) => line.replaceAll('<', '&lt;');
  expect(markdown).toContain(`### ${inert(headline.replace(/^── /, ''))}\n`);
  for (const [label, [first, ...rest]] of rows) {
    const bullet = `- **${label}**: ${inert(first!)}`;
    const at = markdown.indexOf(`${bullet}\n`);
    expect(at, `markdown lacks ${bullet}`).toBeGreaterThanOrEqual(0);
    const nested = markdown
      .slice(at + bullet.length + 1)
      .split('\n')
      .slice(0, rest.length);
    expect(nested).toEqual(rest.map((line) => `  - ${inert(line)}`));
  }
}
