import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compareRunDirCopy } from '../../../../src/run/cache-logs/compare-run-dir-copy.js';
import { DIGEST_BLOCK_BYTES, parseDigestOutput } from '../../../../src/run/cache-logs/remote-log-files.js';
import type { LogGeneration } from '../../../../src/run/cache-logs/log-rotation/index.js';
import { localHost } from '../../../helpers/local-host.js';

// The live copy against the host's file by block digests: the host's side runs for real (sh, split, sha256sum),
// on local files standing in for the remote ones.
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rocm-perf-compare-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** 2.5 blocks of numbered lines: every block's bytes differ from every other's. */
function makeLog(bytes: number): Buffer {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < bytes; i += 1) {
    const line = `{"n":${i},"msg":"a line of the log"}\n`;
    lines.push(line);
    length += line.length;
  }
  return Buffer.from(lines.join('')).subarray(0, bytes);
}

function setup(
  remoteBytes: Buffer,
  live: { from: number; to: number; localOffset: number; bytes?: Buffer },
  prefix = '',
) {
  const remote = path.join(dir, 'zot.jsonl');
  const local = path.join(dir, 'live.jsonl');
  writeFileSync(remote, remoteBytes);
  // The run-dir copy may start with earlier generations' bytes: the generation's live copy sits at localOffset.
  writeFileSync(
    local,
    Buffer.concat([Buffer.from(prefix), live.bytes ?? remoteBytes.subarray(live.from, live.to)]),
  );
  const generation: LogGeneration = {
    index: 0,
    inode: 1,
    fingerprint: undefined,
    startOffset: live.from,
    appendedOffset: live.to,
    localOffset: live.localOffset,
    seenSizeBytes: remoteBytes.length,
  };
  return { remote, local, generation };
}

describe('compareRunDirCopy', () => {
  const log = makeLog(Math.floor(2.5 * DIGEST_BLOCK_BYTES));

  it('equal over the live copy, and the host holds more: only the bytes past the live copy are read', async () => {
    const { remote, local, generation } = setup(
      log,
      { from: 100, to: log.length - 5000, localOffset: 3 },
      'xyz',
    );
    const commands: string[] = [];
    const host = { ...localHost, run: (command: string) => (commands.push(command), localHost.run(command)) };
    const compared = await compareRunDirCopy({ host, localPath: local, generation, copy: { path: remote } });
    expect(compared).toEqual({
      copy: { path: remote },
      lengthBytes: log.length - 100,
      extra: log.subarray(log.length - 5000),
    });
    expect(commands).toHaveLength(2); // the digests, then the extra bytes
  });

  it('the host holds less (copytruncate lost lines after the copy): a match over the common length, nothing extra', async () => {
    const { remote, local, generation } = setup(log.subarray(0, 2_000_000), {
      from: 0,
      to: 0,
      localOffset: 0,
    });
    writeFileSync(local, log.subarray(0, 2_100_000));
    generation.appendedOffset = 2_100_000;
    const compared = await compareRunDirCopy({
      host: localHost,
      localPath: local,
      generation,
      copy: { path: remote },
    });
    expect(compared).toMatchObject({ lengthBytes: 2_000_000, extra: Buffer.alloc(0) });
  });

  it('a byte rewritten in the second block: the difference is located to the byte', async () => {
    const changed = Buffer.from(log);
    const at = DIGEST_BLOCK_BYTES + 123_457;
    changed[at] = changed[at] === 0x41 ? 0x42 : 0x41;
    const { remote, local, generation } = setup(changed, { from: 10, to: log.length, localOffset: 0 });
    writeFileSync(local, log.subarray(10));
    const compared = await compareRunDirCopy({
      host: localHost,
      localPath: local,
      generation,
      copy: { path: remote },
    });
    expect(compared).toEqual({ differsAt: at });
  });

  it('the log itself is read only up to the size a poll saw (it keeps growing)', async () => {
    const { remote, local, generation } = setup(log, { from: 0, to: 1000, localOffset: 0 });
    const compared = await compareRunDirCopy({
      host: localHost,
      localPath: local,
      generation,
      copy: { path: remote, endOffset: 1500 },
    });
    expect(compared).toEqual({
      copy: { path: remote, endOffset: 1500 },
      lengthBytes: 1500,
      extra: log.subarray(1000, 1500),
    });
  });
});

describe('parseDigestOutput', () => {
  const digest = 'a'.repeat(64);
  it('reads the block digests and the length', () => {
    expect(parseDigestOutput(`${digest}  -\n${digest}  -\nlength 42\n`)).toEqual({
      lengthBytes: 42,
      blockDigests: [digest, digest],
    });
    expect(parseDigestOutput('length 0\n')).toEqual({ lengthBytes: 0, blockDigests: [] });
  });
  it.each([
    ['no length line (the command died)', `${digest}  -\n`, /no "length N" line/],
    [
      'a line that is not sha256sum output',
      `sh: split: not found\nlength 3\n`,
      /not a sha256sum line: "sh: split: not found"/,
    ],
  ])('%s: says what is wrong', (_name, stdout, expected) => {
    expect(parseDigestOutput(stdout)).toMatch(expected);
  });
});
