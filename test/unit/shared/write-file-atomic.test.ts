import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir, type TempDir } from '../../helpers/daemons/index.js';
import { writeFileAtomic } from '../../../src/shared/write-file-atomic.js';

// The temp file beside the target is gone after every failure, and the old file is untouched.

let temp: TempDir;
beforeEach(() => {
  temp = createTempDir('atomic');
});
afterEach(() => temp.remove());

describe('writeFileAtomic', () => {
  it('replaces the file whole', async () => {
    const file = path.join(temp.path, 'a.json');
    await writeFile(file, 'old');
    await writeFileAtomic(file, 'new');
    expect(await readFile(file, 'utf8')).toBe('new');
    expect(await readdir(temp.path)).toEqual(['a.json']);
  });

  it('onto a directory: fails with EISDIR and leaves no temp file behind', async () => {
    await mkdir(path.join(temp.path, 'out'));
    await expect(writeFileAtomic(path.join(temp.path, 'out'), 'x')).rejects.toMatchObject({ code: 'EISDIR' });
    expect(await readdir(temp.path)).toEqual(['out']);
    expect(await readdir(path.join(temp.path, 'out'))).toEqual([]);
  });

  it('into a missing folder: fails with ENOENT and creates nothing', async () => {
    await expect(writeFileAtomic(path.join(temp.path, 'nope', 'a.json'), 'x')).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(await readdir(temp.path)).toEqual([]);
  });
});
