import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir, type TempDir } from '../../helpers/daemons/index.js';
import { importRun } from '../../../src/run/import-run.js';
import { createRunDir } from '../../../src/run/run-stamp.js';
import { FileAccessError } from '../../../src/shared/errors.js';

// A runs root that cannot hold a run (here: a file where the folder should be) is named as --root, with the fix,
// for the harness (createRunDir) and for import, and nothing is left behind.

let temp: TempDir;
beforeEach(() => {
  temp = createTempDir('run-root');
});
afterEach(() => temp.remove());

describe('a runs root that is a file', () => {
  it('createRunDir: --root named, a FileAccessError', async () => {
    const root = path.join(temp.path, 'root.txt');
    await writeFile(root, '');
    const error: unknown = await createRunDir({ root, clock: { nowMs: () => 0 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileAccessError);
    expect((error as FileAccessError).message).toBe(
      `--root ${root}: cannot create a run dir under it: ${root} is a file, not a folder`,
    );
  });

  it('importRun: --root named, a FileAccessError, nothing staged', async () => {
    const root = path.join(temp.path, 'root.txt');
    await writeFile(root, '');
    const source = path.join(temp.path, 'run');
    await mkdir(source);
    await writeFile(path.join(source, 'run.json'), '{}');
    const error: unknown = await importRun({
      source,
      lane: 'ci',
      root,
      force: false,
      extractTarball: () => Promise.resolve(),
      rewriteReport: () => Promise.resolve(),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileAccessError);
    expect((error as FileAccessError).message).toMatch(
      new RegExp(`^--root ${root}: cannot import a run under it: ${root} is a file, not a folder$`),
    );
    expect((await readdir(temp.path)).sort()).toEqual(['root.txt', 'run']);
  });
});
