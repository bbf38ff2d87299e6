import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir, type TempDir } from '../../../../helpers/daemons/index.js';
import { importRun } from '../../../../../src/import/import-run.js';
import { createRunDir } from '../../../../../src/run/harness/context/run-stamp.js';
import { FileAccessError } from '../../../../../src/shared/errors.js';

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

describe('importRun: a failure is blamed on the side it happened on', () => {
  async function importFailing(thrown: (paths: { source: string; into: string }) => Error): Promise<unknown> {
    const source = path.join(temp.path, 'nightly.tar.gz');
    await writeFile(source, '');
    const root = path.join(temp.path, 'runs');
    return importRun({
      source,
      lane: 'ci',
      root,
      force: false,
      extractTarball: ({ into }) => Promise.reject(thrown({ source, into })),
      rewriteReport: () => Promise.resolve(),
    }).catch((e: unknown) => e);
  }

  it('a source it may not read: the source', async () => {
    const error = await importFailing(({ source }) =>
      Object.assign(new Error('EACCES'), { code: 'EACCES', syscall: 'open', path: source }),
    );
    expect((error as FileAccessError).message).toBe(
      `${path.join(temp.path, 'nightly.tar.gz')}: cannot read the run to import: permission denied on ${path.join(temp.path, 'nightly.tar.gz')}`,
    );
  });

  it('a full disk while staging: --root, and the staging dir removed', async () => {
    const error = await importFailing(({ source, into }) =>
      Object.assign(new Error('ENOSPC'), {
        code: 'ENOSPC',
        syscall: 'copyfile',
        path: source,
        dest: path.join(into, 'x'),
      }),
    );
    expect((error as FileAccessError).message).toMatch(
      new RegExp(
        `^--root ${path.join(temp.path, 'runs')}: cannot import a run under it: no space left on the device holding `,
      ),
    );
    expect(await readdir(path.join(temp.path, 'runs'))).toEqual([]);
  });
});
