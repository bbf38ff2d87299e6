import type { DataFile } from '../artifacts/index.js';
import { buildUsageRows, USAGE_LEGEND } from './build-usage-rows.js';

// report.md's "What each step used" section (docs/step-usage.md). Pure. Absent when no step was measured.

const escape = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const row = (cells: readonly string[]) => `| ${cells.map(escape).join(' | ')} |`;
const rule = (head: readonly string[]) => row(head.map(() => '---'));

export function renderUsageMd(model: DataFile, harness: string): string[] {
  const rows = buildUsageRows(model);
  if (rows === null) return [];
  return [
    `## What each step used (${harness})`,
    '',
    USAGE_LEGEND,
    '',
    row(rows.stepHead),
    rule(rows.stepHead),
    ...rows.stepRows.map((cells) => row(cells.map((cell, index) => (index === 1 ? `\`${cell}\`` : cell)))),
    '',
    row(rows.nodeHead),
    rule(rows.nodeHead),
    ...rows.nodeRows.map(row),
    '',
  ];
}
