import { buildSummaryRows, describeHeadline } from './build-summary-rows.js';
import type { RunSummary } from './build-run-summary.js';

// The end-of-run summary for the terminal: a headline, then one labelled row per part, continuation lines indented
// under the first. Plain text (no colour): it goes to stdout, which CI logs keep. Pure.

export function renderSummaryText(summary: RunSummary): string {
  const rows = buildSummaryRows(summary);
  const width = Math.max(...rows.map((row) => row.label.length)) + 2;
  const lines = [`── ${describeHeadline(summary)}`];
  for (const row of rows)
    row.lines.forEach((line, index) => lines.push(`${(index === 0 ? row.label : '').padEnd(width)}${line}`));
  return `${lines.join('\n')}\n`;
}
