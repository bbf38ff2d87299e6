import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runPublishCommand } from '../../../src/commands/publish.js';
import { readFinalRuns } from '../../../src/publish/index.js';
import { createTempDir, type TempDir } from '../../helpers/daemons/index.js';
import { repoRoot } from '../../helpers/run-built-cli.js';

// `publish --into` lists its runs from the root's run index (docs/history.md), kept current the way serve keeps
// it: a run added after the index was written is read and published (and its line appended to the index file), and
// a run that cannot be read is listed as damaged, with the reason, while the others are published.

let temp: TempDir;
let root: string;
const COLD = '20260313T092000Z';
const WARM = '20260314T092000Z';
const ADDED = '20260315T092000Z';
const INDEX = '.runs-index.jsonl';

/** The folders the index file names, last line winning (read here, not through the product's reader). */
function indexedFolders(): Map<string, { damaged: string | null; removed?: boolean }> {
  const folders = new Map<string, { damaged: string | null; removed?: boolean }>();
  for (const line of readFileSync(path.join(root, INDEX), 'utf8').split('\n').filter(Boolean)) {
    const entry = JSON.parse(line) as { folder: string; damaged?: string | null; removed?: boolean };
    folders.set(entry.folder, { damaged: entry.damaged ?? null, removed: entry.removed });
  }
  return folders;
}

function copySample(sample: string, folder: string): void {
  cpSync(path.join(repoRoot, 'fixtures/runs', sample), path.join(root, folder), { recursive: true });
}

beforeAll(() => {
  temp = createTempDir('publish-index');
  root = path.join(temp.path, 'runs');
  mkdirSync(root);
  copySample('gfx1201-cold', COLD);
  copySample('gfx1201-warm', WARM);
});
afterAll(() => temp.remove());

describe('publish lists its runs from the run index', () => {
  it('writes the index on first use, then picks up a run added after it was written', async () => {
    expect(existsSync(path.join(root, INDEX))).toBe(false);
    const first = await readFinalRuns({ root });
    expect(first.runs.map((r) => r.stamp).sort()).toEqual([COLD, WARM]);
    expect([...indexedFolders().keys()].sort()).toEqual([COLD, WARM]);

    copySample('gfx1201-warm', ADDED);
    const second = await readFinalRuns({ root });
    expect(second.runs.map((r) => r.stamp).sort()).toEqual([COLD, WARM, ADDED]);
    expect(second.left).toEqual([]);
    // Read through the index: the new run's entry was appended to the file.
    expect(indexedFolders().get(ADDED)).toEqual({ damaged: null, removed: undefined });
  });

  it('lists a damaged run as damaged, with the reason, and publishes the others', async () => {
    const runJson = path.join(root, COLD, 'run.json');
    writeFileSync(runJson, readFileSync(runJson, 'utf8').slice(0, 300));
    const { runs, left } = await readFinalRuns({ root });
    expect(runs.map((r) => r.stamp).sort()).toEqual([WARM, ADDED]);
    expect(left).toEqual([expect.stringMatching(new RegExp(`^${COLD}: damaged \\(${runJson}: not JSON`))]);
    expect(indexedFolders().get(COLD)?.damaged).toMatch(/run\.json/);

    const into = path.join(temp.path, 'perf');
    const errors: string[] = [];
    const spy = vi
      .spyOn(console, 'error')
      .mockImplementation((line: unknown) => void errors.push(String(line)));
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      await runPublishCommand({
        root,
        into,
        out: undefined,
        push: false,
        force: false,
        fleet: path.join(temp.path, 'fleet.yaml'),
        logLevel: 'warn',
        debug: false,
      });
    } finally {
      spy.mockRestore();
      log.mockRestore();
    }
    expect(errors).toContainEqual(expect.stringMatching(new RegExp(`^not published: ${COLD}: damaged \\(`)));
    expect(existsSync(path.join(into, WARM, 'data.json'))).toBe(true);
    expect(existsSync(path.join(into, ADDED, 'data.json'))).toBe(true);
    expect(existsSync(path.join(into, COLD))).toBe(false);
  });
});
