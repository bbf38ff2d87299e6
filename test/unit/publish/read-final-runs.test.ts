import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFinalRuns } from '../../../src/publish/index.js';
import { createTempDir, type TempDir } from '../../helpers/daemons/index.js';
import { repoRoot } from '../../helpers/run-built-cli.js';

// `publish --into` copies run.json, plan.json and artifacts.txt as they are: read confined (docs/trust.md), so a
// link to a file outside the run dir is left out with a loud warning naming it, and its bytes are never published.

let temp: TempDir;
let root: string;
const STAMP = '20260314T092000Z';

beforeAll(() => {
  temp = createTempDir('final-runs');
  root = path.join(temp.path, 'runs');
  mkdirSync(root);
  const secret = path.join(temp.path, 'passwd');
  writeFileSync(secret, 'SECRET-root:x:0:0\n');
  const dir = path.join(root, STAMP);
  cpSync(path.join(repoRoot, 'fixtures/runs/gfx1201-warm'), dir, { recursive: true });
  rmSync(path.join(dir, 'artifacts.txt'));
  symlinkSync(secret, path.join(dir, 'artifacts.txt'));
});
afterAll(() => temp.remove());

describe('readFinalRuns', () => {
  it('leaves a linked artifacts.txt out of the copies, says so loudly, and publishes no byte of it', async () => {
    const { runs, loud } = await readFinalRuns({ root });
    expect(runs.map((r) => r.stamp)).toEqual([STAMP]);
    const [run] = runs;
    expect(Object.keys(run?.copies ?? {}).sort()).toEqual(['plan.json', 'run.json']);
    expect(loud).toContainEqual(
      `${STAMP}: ${path.join(root, STAMP, 'artifacts.txt')}: refused: a symbolic link; a run-dir file is read only when it is a regular file of its own; not published`,
    );
    expect(loud).toContainEqual(
      expect.stringMatching(/^20260314T092000Z: artifacts\.txt: cannot be read \(refused/),
    );
    for (const content of Object.values(run?.copies ?? {}))
      expect(content.toString()).not.toContain('SECRET');
    expect(JSON.stringify(run?.model)).not.toContain('SECRET');
  });
});
