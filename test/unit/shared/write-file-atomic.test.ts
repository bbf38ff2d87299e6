import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir, type TempDir } from '../../helpers/daemons/index.js';
import { isStaleTemp, writeFileAtomic } from '../../../src/shared/write-file-atomic.js';

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

  it('removes the stale temp files of killed writes in the folder, and only those', async () => {
    const dead = spawnSync('true').pid; // exited: no process of this pid runs now
    const alive = process.ppid;
    const ago = async (name: string, seconds: number) => {
      await writeFile(path.join(temp.path, name), 'half');
      const at = new Date(Date.now() - seconds * 1000);
      await utimes(path.join(temp.path, name), at, at);
    };
    await ago(`.data.json.${dead}.tmp`, 120); // a killed report: removed
    await ago(`.report.md.${dead}.tmp`, 10); // a fresh temp (a writer on another host?): kept
    await ago(`.index.html.${alive}.tmp`, 120); // a running writer's: kept
    await ago(`.timeline.svg.${alive}.tmp`, 2 * 86_400); // a day old, its pid reused: removed
    await ago('.notes.tmp', 120); // not ours: kept
    await writeFileAtomic(path.join(temp.path, 'targets.svg'), 'new');
    expect((await readdir(temp.path)).sort()).toEqual(
      ['.index.html.' + alive + '.tmp', '.notes.tmp', `.report.md.${dead}.tmp`, 'targets.svg'].sort(),
    );
  });

  it('never writes through a link planted at its temporary name', async () => {
    const outside = path.join(temp.path, 'outside.txt');
    await writeFile(outside, 'keep');
    await mkdir(path.join(temp.path, 'run'));
    await symlink(outside, path.join(temp.path, 'run', `.data.json.${process.pid}.tmp`));
    await writeFileAtomic(path.join(temp.path, 'run', 'data.json'), 'new');
    expect(await readFile(outside, 'utf8')).toBe('keep');
    expect(await readFile(path.join(temp.path, 'run', 'data.json'), 'utf8')).toBe('new');
  });
});

describe('isStaleTemp', () => {
  const running = (pid: number) => pid === 7;
  it.each([
    [{ pid: 9, ageMs: 120_000 }, true],
    [{ pid: 9, ageMs: 59_000 }, false],
    [{ pid: 7, ageMs: 120_000 }, false],
    [{ pid: 7, ageMs: 86_400_000 }, true],
    [{ pid: 5, ageMs: 86_400_000 }, false],
  ])('%j → %s', (facts, stale) => {
    expect(isStaleTemp({ ...facts, ownPid: 5, isRunning: running })).toBe(stale);
  });
});
