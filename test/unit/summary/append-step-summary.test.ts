import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendStepSummary } from '../../../src/summary/index.js';

// GITHUB_STEP_SUMMARY: GitHub renders what every step of a job appended to one file, so the summary is appended
// (an earlier step's stays) and a file that cannot be written is a warning, never a thrown error (the run is
// already recorded).

const dirs: string[] = [];
const makeDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'step-summary-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('appendStepSummary', () => {
  it('appends after what earlier steps wrote, twice in a row without truncating', async () => {
    const file = path.join(makeDir(), 'step_summary');
    writeFileSync(file, '## build step\n');
    expect(await appendStepSummary(file, '### run one\n')).toEqual([]);
    expect(await appendStepSummary(file, '### run two\n')).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe('## build step\n### run one\n### run two\n');
  });

  it('creates the file when the runner has not yet', async () => {
    const file = path.join(makeDir(), 'new_summary');
    expect(await appendStepSummary(file, '### run\n')).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe('### run\n');
  });

  it.each([
    [
      'a folder',
      (dir: string) => (mkdirSync(path.join(dir, 'is-a-folder')), path.join(dir, 'is-a-folder')),
      /is a folder/,
    ],
    ['a missing folder', (dir: string) => path.join(dir, 'missing', 'summary.md'), /does not exist/],
  ])(
    '%s: a warning and a hint naming GITHUB_STEP_SUMMARY and the path, not a throw',
    async (_, place, reason) => {
      const file = place(makeDir());
      const lines = await appendStepSummary(file, '### run\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^warning: GITHUB_STEP_SUMMARY \S+: cannot append the run summary: /);
      expect(lines[0]).toContain(`GITHUB_STEP_SUMMARY ${file}: `);
      expect(lines[0]).toMatch(reason);
      expect(lines[0]).toContain('the run and its report are recorded');
      expect(lines[1]).toMatch(/^hint: \S/);
    },
  );
});
