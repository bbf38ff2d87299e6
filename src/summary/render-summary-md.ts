import { toInertMarkdown } from '../report/to-inert-markdown.js';
import { buildSummaryRows, describeHeadline } from './build-summary-rows.js';
import type { RunSummary } from './build-run-summary.js';

// The end-of-run summary as markdown, for GitHub's job summary (GITHUB_STEP_SUMMARY): a heading, then the same rows
// as the terminal's, one bullet each, continuation lines (and each loud warning) nested under it. Names come from
// run files, so the text is made inert: no raw HTML reaches the page. Pure.

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ');

export function renderSummaryMd(summary: RunSummary): string {
  const lines = [`### ${oneLine(describeHeadline(summary))}`, ''];
  for (const row of buildSummaryRows(summary)) {
    const [first = '', ...rest] = row.lines.map(oneLine);
    lines.push(`- **${row.label}**: ${first}`, ...rest.map((line) => `  - ${line}`));
  }
  return `${toInertMarkdown(lines.join('\n'))}\n\n`;
}
