// Log capture across rotations by Debian's logrotate, over ssh2 to a real sshd (Debian's openssh-server) on
// loopback: copytruncate, rename + create with a writer still on the renamed file, gzip and xz, two rotations in one
// run, and a rotated file logrotate deletes (rotate 0). The slice must hold every line written during the run, once,
// in order — or name what it is missing.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SshTarget } from '../../src/config/schema.js';
import { createLogCapture } from '../../src/run/cache-logs/capture-logs.js';
import { createRemoteHostConnector } from '../../src/run/executors/remote-host.js';
import { createSilentLogger } from '../helpers/silent-logger.js';
import { createTempDir, startSshd, type RunningSshd, type TempDir } from '../helpers/daemons/index.js';

// No ssh agent: the test's sshd takes the key it was given (the CLI hands SSH_AUTH_SOCK down).
const connectRemoteHost = createRemoteHostConnector(undefined);

let sshd: RunningSshd;
let dir: TempDir;

beforeAll(async () => {
  sshd = await startSshd();
  dir = createTempDir('capture-rotation');
});

afterAll(async () => {
  await sshd?.stop();
  dir?.remove();
});

const target = (): SshTarget => ({
  host: sshd.host,
  port: sshd.port,
  user: sshd.user,
  identity_file: sshd.privateKeyPath,
  known_hosts: sshd.knownHostsPath,
});

/** One scenario: a log dir, a writer holding the log open with O_APPEND (as nginx and Zot do), a capture of it. */
function setup(name: string) {
  const logDir = path.join(dir.path, name);
  const runDir = path.join(logDir, 'run');
  mkdirSync(runDir, { recursive: true });
  const log = path.join(logDir, 'zot.jsonl');
  writeFileSync(log, '{"n":"before the run 1"}\n{"n":"before the run 2"}\n');
  let fd = openSync(log, 'a');
  let count = 0;
  const written: string[] = [];
  const capture = createLogCapture({
    sources: [{ kind: 'registry', file: 'zot.jsonl', ssh: target(), path: log }],
    runDir,
    connect: connectRemoteHost,
    logger: createSilentLogger(),
  });
  return {
    log,
    capture,
    /** Writes n lines, each with its own timestamp, to the file the writer has open. */
    write(n: number) {
      for (let index = 0; index < n; index++) {
        const line = `{"time":"${new Date().toISOString()}","n":${++count},"scenario":"${name}"}\n`;
        writeSync(fd, line);
        written.push(line);
      }
    },
    /** What nginx does on USR1: reopen the log by name. */
    reopen() {
      closeSync(fd);
      fd = openSync(log, 'a');
    },
    /** Runs the real logrotate with this config body for the log. */
    rotate(config: string) {
      const conf = path.join(logDir, 'logrotate.conf');
      writeFileSync(conf, `${log} {\n  ${config.trim().split('\n').join('\n  ')}\n}\n`);
      execFileSync('logrotate', ['-f', '-s', path.join(logDir, 'logrotate.state'), conf]);
    },
    written: () => written.join(''),
    slice: () => readFileSync(path.join(runDir, 'zot.jsonl'), 'utf8'),
    close: () => closeSync(fd),
  };
}

const names = (segments: { remotePath: string; source: string }[] | undefined) =>
  segments?.map((segment) => `${segment.source} ${path.basename(segment.remotePath)}`);

describe('log capture across logrotate rotations, over ssh', () => {
  it('copytruncate: the rotated copy, then the truncated log', async () => {
    const run = setup('copytruncate');
    await run.capture.start();
    run.write(5);
    await run.capture.poll();
    run.write(4);
    run.rotate('rotate 3\ncopytruncate');
    run.write(3);
    await run.capture.poll();
    expect(run.slice()).toBe(run.written());
    run.write(2);
    const [slice] = await run.capture.stop();
    run.close();
    expect(run.slice()).toBe(run.written());
    expect(slice?.warning).toBeUndefined();
    expect(names(slice?.segments)).toEqual(['remote zot.jsonl.1', 'remote zot.jsonl']);
    expect(slice?.sizeBytes).toBe(Buffer.byteLength(run.written()));
  });

  it('rename + create: the writer goes on writing to the renamed file until it reopens', async () => {
    const run = setup('create');
    await run.capture.start();
    run.write(5);
    await run.capture.poll();
    run.write(2);
    run.rotate('rotate 3\ncreate');
    run.write(3); // still to the renamed zot.jsonl.1
    await run.capture.poll();
    run.write(2); // after the poll, still to zot.jsonl.1: only the final slice has these
    run.reopen();
    run.write(4);
    await run.capture.poll();
    const [slice] = await run.capture.stop();
    run.close();
    expect(run.slice()).toBe(run.written());
    expect(slice?.warning).toBeUndefined();
    expect(names(slice?.segments)).toEqual(['remote zot.jsonl.1', 'remote zot.jsonl']);
  });

  it('compressed: copytruncate + gzip, then rename + create + xz with dateext', async () => {
    const run = setup('compressed');
    await run.capture.start();
    run.write(3);
    await run.capture.poll();
    run.write(3);
    run.rotate('rotate 3\ncopytruncate\ncompress');
    run.write(3);
    await run.capture.poll();
    run.write(2);
    run.rotate(
      'rotate 3\ncreate\ncompress\ncompresscmd /usr/bin/xz\nuncompresscmd /usr/bin/unxz\ncompressext .xz\ndateext\ndateformat -%Y%m%d-%s',
    );
    run.reopen();
    run.write(3);
    await run.capture.poll();
    const [slice] = await run.capture.stop();
    run.close();
    expect(run.slice()).toBe(run.written());
    expect(slice?.warning).toBeUndefined();
    expect(names(slice?.segments)).toEqual([
      'remote zot.jsonl.1.gz',
      expect.stringMatching(/^remote zot\.jsonl-\d{8}-\d+\.xz$/),
      'remote zot.jsonl',
    ]);
  });

  it('two rotations in one run: a chain of three generations, the older one shifted to .2.gz', async () => {
    const run = setup('two-rotations');
    await run.capture.start();
    for (let rotation = 0; rotation < 2; rotation++) {
      run.write(3);
      await run.capture.poll();
      run.write(2);
      run.rotate('rotate 5\ncopytruncate\ncompress');
      await run.capture.poll();
    }
    run.write(3);
    const [slice] = await run.capture.stop();
    run.close();
    expect(run.slice()).toBe(run.written());
    expect(slice?.warning).toBeUndefined();
    expect(
      slice?.segments?.map((segment) => [segment.generation, path.basename(segment.remotePath)]),
    ).toEqual([
      [0, 'zot.jsonl.2.gz'],
      [1, 'zot.jsonl.1.gz'],
      [2, 'zot.jsonl'],
    ]);
    expect(slice?.startOffset).toBe(
      Buffer.byteLength('{"n":"before the run 1"}\n{"n":"before the run 2"}\n'),
    );
  });

  it('a rotated file logrotate deletes (rotate 0): the live copy is kept, the warning names the file and the bytes missing', async () => {
    const run = setup('deleted');
    const start = Buffer.byteLength('{"n":"before the run 1"}\n{"n":"before the run 2"}\n');
    await run.capture.start();
    run.write(4);
    await run.capture.poll();
    const polled = run.written();
    run.write(2); // never polled: gone with the deleted file
    run.rotate('rotate 0\ncreate');
    run.reopen();
    run.write(3);
    const after = run.written().slice(Buffer.byteLength(polled));
    const [slice] = await run.capture.stop();
    run.close();
    const kept = start + Buffer.byteLength(polled);
    const newLines = after.split('\n').slice(2).join('\n');
    expect(run.slice()).toBe(polled + newLines);
    expect(slice?.warning).toBe(
      `${run.log}: the file that was the log at the start (first line "{\\"n\\":\\"before the run 1\\"}") was not found among the files beside it in ${path.dirname(run.log)} (deleted, or moved elsewhere by olddir?); bytes ${start}–${kept} kept from the copy appended during the run; bytes written to it after offset ${kept} are missing`,
    );
    expect(names(slice?.segments)).toEqual(['live zot.jsonl', 'remote zot.jsonl']);
  });
});
