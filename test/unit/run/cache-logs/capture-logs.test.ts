import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  closeSync,
  copyFileSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogCapture } from '../../../../src/run/cache-logs/capture-logs.js';
import { localHost } from '../../../helpers/local-host.js';
import { createSilentLogger } from '../../../helpers/silent-logger.js';

// The capture's shell commands run locally (sh), against a local file standing in for the remote log. The
// rotations are done by hand, step by step, the way logrotate does them (the real logrotate runs in
// test/integration/capture-logs-rotation.test.ts and the box e2e).
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rocm-perf-capture-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function setup() {
  const remote = path.join(dir, "remote log's.jsonl");
  writeFileSync(remote, 'old line 1\nold line 2\n');
  const capture = createLogCapture({
    sources: [{ kind: 'registry', file: 'zot.jsonl', ssh: { host: 'store' }, path: remote }],
    runDir: dir,
    connect: () => Promise.resolve(localHost),
    logger: createSilentLogger(),
  });
  return { remote, capture, local: path.join(dir, 'zot.jsonl') };
}

/** A writer holding the log open with O_APPEND, as nginx and Zot do; `reopen` is what USR1 makes nginx do. */
function openWriter(file: string) {
  let fd = openSync(file, 'a');
  return {
    write: (line: string) => void writeSync(fd, `${line}\n`),
    reopen: () => {
      closeSync(fd);
      fd = openSync(file, 'a');
    },
    close: () => closeSync(fd),
  };
}

const read = (file: string) => readFileSync(file, 'utf8');

describe('createLogCapture', () => {
  it('appends new bytes during the run and ends with exactly the run window', async () => {
    const { remote, capture, local } = setup();
    await capture.start();
    appendFileSync(remote, 'run line 1\n');
    await capture.poll();
    expect(read(local)).toBe('run line 1\n');
    appendFileSync(remote, 'run line 2\n');
    await capture.poll();
    appendFileSync(remote, 'run line 3\n');
    const [slice] = await capture.stop();
    expect(read(local)).toBe('run line 1\nrun line 2\nrun line 3\n');
    expect(slice).toMatchObject({
      kind: 'registry',
      file: 'zot.jsonl',
      startOffset: 22,
      endOffset: 55,
      sizeBytes: 33,
      segments: [
        { generation: 0, source: 'remote', remotePath: slice?.remotePath, fromOffset: 22, toOffset: 55 },
      ],
    });
    expect(slice?.warning).toBeUndefined();
  });

  it('copytruncate: the rotated copy, the lines lost between copy and truncate (appended live), then the new log', async () => {
    const { remote, capture, local } = setup();
    const writer = openWriter(remote);
    await capture.start();
    writer.write('before copy');
    await capture.poll();
    writer.write('before copy, after the poll');
    copyFileSync(remote, `${remote}.1`);
    writer.write('between copy and truncate');
    await capture.poll(); // appended live; the copy does not hold it
    truncateSync(remote, 0);
    writer.write('after truncate');
    await capture.poll();
    expect(read(local)).toBe(
      'before copy\nbefore copy, after the poll\nbetween copy and truncate\nafter truncate\n',
    );
    writer.write('last');
    const [slice] = await capture.stop();
    writer.close();
    expect(read(local)).toBe(
      'before copy\nbefore copy, after the poll\nbetween copy and truncate\nafter truncate\nlast\n',
    );
    expect(slice?.warning).toBeUndefined();
    expect(slice?.segments).toEqual([
      { generation: 0, source: 'remote', remotePath: `${remote}.1`, fromOffset: 22, toOffset: 62 },
      { generation: 0, source: 'live', remotePath: remote, fromOffset: 62, toOffset: 88 },
      { generation: 1, source: 'remote', remotePath: remote, fromOffset: 0, toOffset: 20 },
    ]);
    expect(slice).toMatchObject({ startOffset: 22, endOffset: 20, sizeBytes: 86 });
  });

  it('rename + create: the writer keeps writing to the renamed file until it reopens; the rotated file is compressed', async () => {
    const { remote, capture, local } = setup();
    const writer = openWriter(remote);
    await capture.start();
    writer.write('a1');
    await capture.poll();
    renameSync(remote, `${remote}.1`);
    writeFileSync(remote, '');
    writer.write('a2, to the renamed file');
    await capture.poll(); // sees the new inode: catches a2 up from .1
    expect(read(local)).toBe('a1\na2, to the renamed file\n');
    writer.write('a3, still to the renamed file');
    writer.reopen();
    writer.write('b1');
    await capture.poll();
    execFileSync('gzip', [`${remote}.1`]);
    writer.write('b2');
    const [slice] = await capture.stop();
    writer.close();
    expect(read(local)).toBe('a1\na2, to the renamed file\na3, still to the renamed file\nb1\nb2\n');
    expect(slice?.warning).toBeUndefined();
    expect(slice?.segments?.map((segment) => [segment.source, path.basename(segment.remotePath)])).toEqual([
      ['remote', "remote log's.jsonl.1.gz"],
      ['remote', "remote log's.jsonl"],
    ]);
  });

  it('two rotations in one run (dated and xz-compressed, then numbered): a chain of three generations', async () => {
    const { remote, capture, local } = setup();
    await capture.start();
    appendFileSync(remote, 'g0 line\n');
    await capture.poll();
    appendFileSync(remote, 'g0 unpolled\n');
    renameSync(remote, `${remote}-20250101`);
    appendFileSync(remote, 'g1 line\n');
    execFileSync('xz', [`${remote}-20250101`]);
    await capture.poll();
    appendFileSync(remote, 'g1 unpolled\n');
    copyFileSync(remote, `${remote}.1`);
    truncateSync(remote, 0);
    appendFileSync(remote, 'g2 line\n');
    await capture.poll();
    const [slice] = await capture.stop();
    expect(read(local)).toBe('g0 line\ng0 unpolled\ng1 line\ng1 unpolled\ng2 line\n');
    expect(slice?.warning).toBeUndefined();
    expect(
      slice?.segments?.map((segment) => [segment.generation, path.basename(segment.remotePath)]),
    ).toEqual([
      [0, "remote log's.jsonl-20250101.xz"],
      [1, "remote log's.jsonl.1"],
      [2, "remote log's.jsonl"],
    ]);
  });

  it('a deleted rotated file: what was appended live is kept and the warning names the file and the missing bytes', async () => {
    const { remote, capture, local } = setup();
    await capture.start();
    appendFileSync(remote, 'kept\n');
    await capture.poll();
    appendFileSync(remote, 'lost with the deleted file\n');
    renameSync(remote, `${remote}.1`);
    writeFileSync(remote, 'new\n');
    rmSync(`${remote}.1`);
    await capture.poll();
    const [slice] = await capture.stop();
    expect(read(local)).toBe('kept\nnew\n');
    expect(slice?.warning).toBe(
      `${remote}: the file that was the log at the start (first line "old line 1") was not found among the files beside it in ${dir} (deleted, or moved elsewhere by olddir?); bytes 22–27 kept from the copy appended during the run; bytes written to it after offset 27 are missing`,
    );
  });

  it('a log truncated in place (no copy kept): the bytes appended before are kept, the rest is named as missing', async () => {
    const { remote, capture, local } = setup();
    await capture.start();
    appendFileSync(remote, 'before rotation\n');
    await capture.poll();
    writeFileSync(remote, 'new\n');
    await capture.poll();
    const [slice] = await capture.stop();
    expect(read(local)).toBe('before rotation\nnew\n');
    expect(slice?.warning).toMatch(
      /bytes 22–38 kept from the copy appended during the run; bytes written to it after offset 38 are missing$/,
    );
  });

  it('two rotations between two polls: the file in the middle is named, not silently dropped', async () => {
    const { remote, capture } = setup();
    await capture.start();
    appendFileSync(remote, 'g0\n');
    await capture.poll();
    renameSync(remote, `${remote}.2`);
    writeFileSync(remote, 'g1 never polled\n');
    renameSync(remote, `${remote}.1`);
    writeFileSync(remote, 'g2\n');
    await capture.poll();
    const [slice] = await capture.stop();
    expect(slice?.warning).toBe(
      `${remote}.1 (16 bytes on disk) holds lines written during the run that the slice does not place (two rotations between two polls?); they are not in the slice`,
    );
  });

  it('a rotated copy that cannot be decompressed: the live copy is kept and the warning names the file and the fix', async () => {
    const { remote, capture, local } = setup();
    await capture.start();
    appendFileSync(remote, 'a1\n');
    await capture.poll();
    renameSync(remote, `${remote}.1`);
    writeFileSync(remote, '');
    // A damaged archive: it still holds the generation's first line (all the listing reads).
    const gzip = execFileSync('gzip', ['-c', `${remote}.1`]);
    writeFileSync(`${remote}.1.gz`, gzip.subarray(0, gzip.length - 8)); // no trailer: gzip -dc exits 1
    rmSync(`${remote}.1`);
    await capture.poll();
    const [slice] = await capture.stop();
    expect(read(local)).toBe('a1\n');
    expect(slice?.warning).toContain(`cannot read the rotated log ${remote}.1.gz`);
    expect(slice?.warning).toContain(
      'unexpected end of file rocm-perf: decompress failed: gzip -dc exited 1); the file is damaged or was still being compressed',
    );
    expect(slice?.warning).toContain('bytes 22–25 kept from the copy appended during the run');
  });
});

describe('a log host that drops mid-run', () => {
  it('reconnects after a back-off, says when it was away, and the slice still holds every byte of the window', async () => {
    const remote = path.join(dir, 'zot.log');
    writeFileSync(remote, 'before\n');
    let nowMs = Date.UTC(2026, 11, 3, 20, 0, 0);
    let down = false;
    let connects = 0;
    const flaky = {
      ...localHost,
      run: (command: string) =>
        down
          ? Promise.reject(Object.assign(new Error('Not connected'), { level: 'client-socket' }))
          : localHost.run(command),
    };
    const capture = createLogCapture({
      sources: [{ kind: 'registry', file: 'zot.jsonl', ssh: { host: 'store' }, path: remote }],
      runDir: dir,
      connect: () => {
        connects += 1;
        return down ? Promise.reject(new Error('connect ECONNREFUSED 10.0.0.1:22')) : Promise.resolve(flaky);
      },
      logger: createSilentLogger(),
      clock: { nowMs: () => nowMs },
    });
    await capture.start();
    appendFileSync(remote, 'one\n');
    await capture.poll();
    down = true;
    appendFileSync(remote, 'two\n');
    await capture.poll(); // the link breaks
    nowMs += 1_000;
    await capture.poll(); // within the back-off: no attempt
    expect(connects).toBe(1);
    nowMs += 5_000;
    await capture.poll(); // an attempt, refused: the back-off doubles
    expect(connects).toBe(2);
    down = false;
    nowMs += 5_000;
    await capture.poll(); // still backing off (10 s)
    expect(connects).toBe(2);
    nowMs += 5_000;
    appendFileSync(remote, 'three\n');
    await capture.poll(); // reconnected
    expect(connects).toBe(3);
    expect(read(path.join(dir, 'zot.jsonl'))).toBe('one\ntwo\nthree\n');
    const [slice] = await capture.stop();
    expect(read(path.join(dir, 'zot.jsonl'))).toBe('one\ntwo\nthree\n');
    expect(slice?.warning).toBeUndefined();
    expect(slice?.outages).toEqual([
      'log host builder@store.test was unreachable 20:00:00–20:00:16 UTC (2 failed attempts: connect ECONNREFUSED 10.0.0.1:22); reconnected, and the final slice covers the outage',
    ]);
  });
  it('a log host down at the start is waited for with a back-off; the capture starts when it answers and says so', async () => {
    const remote = path.join(dir, 'zot.log');
    writeFileSync(remote, 'before\n');
    let nowMs = Date.UTC(2026, 11, 3, 20, 0, 0);
    const waits: number[] = [];
    let refusals = 2;
    let sessionDrops = 1;
    const dropping = {
      ...localHost,
      // An sshd going down under a running command: the session ends without an exit code.
      run: (command: string) =>
        sessionDrops-- > 0
          ? Promise.resolve({ exitCode: null, stdout: Buffer.alloc(0), stderr: '' })
          : localHost.run(command),
    };
    const capture = createLogCapture({
      sources: [{ kind: 'registry', file: 'zot.jsonl', ssh: { host: 'store' }, path: remote }],
      runDir: dir,
      connect: () =>
        refusals-- > 0
          ? Promise.reject(
              Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:22'), { code: 'ECONNREFUSED' }),
            )
          : Promise.resolve(dropping),
      logger: createSilentLogger(),
      clock: { nowMs: () => nowMs },
      wait: (ms) => {
        waits.push(ms);
        nowMs += ms;
        return Promise.resolve();
      },
    });
    await capture.start();
    expect(waits).toEqual([1_000, 2_000, 4_000]);
    appendFileSync(remote, 'one\n');
    await capture.poll();
    const [slice] = await capture.stop();
    expect(read(path.join(dir, 'zot.jsonl'))).toBe('one\n');
    expect(slice?.warning).toBeUndefined();
    expect(slice?.outages).toHaveLength(1);
    expect(slice?.outages?.[0]).toMatch(
      /^log host builder@store\.test was unreachable at the start of the capture, 20:00:00–20:00:07 UTC \(3 failed attempts: .*exit null.*\); the capture started before any target was dispatched$/,
    );
  });

  it('a log that is not there fails the start at once: only a failing link is waited for', async () => {
    const waits: number[] = [];
    const capture = createLogCapture({
      sources: [
        { kind: 'registry', file: 'zot.jsonl', ssh: { host: 'store' }, path: path.join(dir, 'absent.log') },
      ],
      runDir: dir,
      connect: () => Promise.resolve(localHost),
      logger: createSilentLogger(),
      wait: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    });
    await expect(capture.start()).rejects.toThrow(/absent\.log does not exist/);
    expect(waits).toEqual([]);
  });

  it('polls fired while one is slow collapse into one: stop() does not wait behind a queue of them', async () => {
    const remote = path.join(dir, 'zot.log');
    writeFileSync(remote, 'before\n');
    let commands = 0;
    let release: () => void = () => undefined;
    let gate = Promise.resolve();
    const slow = {
      ...localHost,
      run: async (command: string) => {
        commands += 1;
        await gate;
        return localHost.run(command);
      },
    };
    const capture = createLogCapture({
      sources: [{ kind: 'registry', file: 'zot.jsonl', ssh: { host: 'store' }, path: remote }],
      runDir: dir,
      connect: () => Promise.resolve(slow),
      logger: createSilentLogger(),
    });
    await capture.start();
    appendFileSync(remote, 'one\n');
    gate = new Promise((resolve) => (release = resolve));
    const first = capture.poll(); // runs, held at the gate
    await new Promise((resolve) => setTimeout(resolve, 20));
    const before = commands;
    const queued = Array.from({ length: 50 }, () => capture.poll()); // the timer firing while it is held
    expect(new Set(queued).size).toBe(1);
    release();
    await Promise.all([first, ...queued]);
    // The held poll and one more: a list and a range read each, at most.
    expect(commands - before).toBeLessThanOrEqual(4);
    const [slice] = await capture.stop();
    expect(slice?.warning).toBeUndefined();
    expect(read(path.join(dir, 'zot.jsonl'))).toBe('one\n');
  });
});
