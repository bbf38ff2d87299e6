import { execFileSync } from 'node:child_process';
import { link, mkdir, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  findUnsafeEntries,
  openRunFile,
  readRunFileBytes,
  RunFileRefusedError,
  statRunFile,
} from '../../../src/shared/open-run-file.js';
import { createTempDir, type TempDir } from '../../helpers/daemons/index.js';

// Confinement (docs/trust.md): a run-dir file is read only when it is a regular file of its own. Each case makes the
// file the way an attacker's tarball or a careless copy would, with a secret outside the run dir behind it.

let temp: TempDir;
let run: string;
let secret: string;
const servers: Server[] = [];
beforeEach(async () => {
  temp = createTempDir('confine');
  run = path.join(temp.path, 'run');
  await mkdir(run);
  secret = path.join(temp.path, 'passwd');
  await writeFile(secret, 'SECRET-root:x:0:0\n');
});
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  temp.remove();
});

async function listenOn(file: string): Promise<void> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(file, resolve));
}

const makers: [string, string, (file: string) => Promise<unknown>][] = [
  ['a symbolic link out of the run dir', 'a symbolic link', (file) => symlink(secret, file)],
  ['a relative symbolic link out', 'a symbolic link', (file) => symlink('../passwd', file)],
  [
    'a symbolic link to a file inside the run dir',
    'a symbolic link',
    async (file) => {
      await writeFile(path.join(run, 'real.txt'), 'inside\n');
      await symlink('real.txt', file);
    },
  ],
  ['a dangling symbolic link', 'a symbolic link', (file) => symlink('/nonexistent/x', file)],
  [
    'a hard link to a file outside',
    'a hard link (2 names for one file; another may be outside the run dir)',
    (file) => link(secret, file),
  ],
  [
    'a FIFO (no writer: the open must not hang)',
    'a FIFO (named pipe)',
    (file) => Promise.resolve(execFileSync('mkfifo', [file])),
  ],
  ['a socket', 'a socket', (file) => listenOn(file)],
  ['a directory', 'a directory', (file) => mkdir(file)],
  ['a character device (a link to /dev/null)', 'a symbolic link', (file) => symlink('/dev/null', file)],
];

describe('openRunFile', () => {
  it('reads a regular file of the run dir', async () => {
    await writeFile(path.join(run, 'artifacts.txt'), 'wheel a.whl\n');
    expect((await readRunFileBytes(path.join(run, 'artifacts.txt'))).toString('utf8')).toBe('wheel a.whl\n');
    expect(await statRunFile(path.join(run, 'artifacts.txt'))).toMatchObject({ size: 12 });
  });

  it.each(makers)('refuses %s, naming the file and what it is', async (_, reason, make) => {
    const file = path.join(run, 'artifacts.txt');
    await make(file);
    const refusal = await readRunFileBytes(file).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RunFileRefusedError);
    expect(refusal).toMatchObject({ code: 'ROCMPERF_RUN_FILE_REFUSED', path: file, reason, exitCode: 2 });
    expect((refusal as Error).message).toBe(
      `${file}: refused: ${reason}; a run-dir file is read only when it is a regular file of its own`,
    );
    expect((refusal as RunFileRefusedError).hint).toMatch(/never follows a link out of a run dir/);
    expect(await statRunFile(file)).toBeUndefined();
  });

  it('refuses the opened descriptor, not a name checked before: a device opened directly is refused', async () => {
    // /dev/null is a character device reached without a link: only the fstat of the opened file can see it.
    await expect(openRunFile('/dev/null')).rejects.toMatchObject({ reason: 'a character device' });
  });

  it('a missing file rejects with ENOENT, as open does (absence is not a refusal)', async () => {
    await expect(openRunFile(path.join(run, 'nope'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('findUnsafeEntries', () => {
  it('lists every entry openRunFile would refuse, in subfolders too, links never followed', async () => {
    await writeFile(path.join(run, 'run.json'), '{}');
    await symlink(secret, path.join(run, 'artifacts.txt'));
    await link(secret, path.join(run, 'zot.jsonl'));
    execFileSync('mkfifo', [path.join(run, 'samples.jsonl')]);
    await mkdir(path.join(run, 'logs'));
    await symlink(temp.path, path.join(run, 'logs', 'up'));
    expect(await findUnsafeEntries(run)).toEqual([
      { name: 'artifacts.txt', reason: 'a symbolic link' },
      { name: 'logs/up', reason: 'a symbolic link' },
      { name: 'samples.jsonl', reason: 'a FIFO (named pipe)' },
      {
        name: 'zot.jsonl',
        reason: 'a hard link (2 names for one file; another may be outside the run dir)',
      },
    ]);
  });
});
