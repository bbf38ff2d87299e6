import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogCapture } from '../../../src/run/capture-logs.js';
import { localHost } from './local-host.js';
import { createSilentLogger } from '../../../src/shared/logger.js';

// The capture's shell commands run locally (sh), against a local file standing in for the remote log.
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

describe('createLogCapture', () => {
  it('appends new bytes during the run and ends with exactly the run window', async () => {
    const { remote, capture, local } = setup();
    await capture.start();
    appendFileSync(remote, 'run line 1\n');
    await capture.poll();
    expect(readFileSync(local, 'utf8')).toBe('run line 1\n');
    appendFileSync(remote, 'run line 2\n');
    await capture.poll();
    appendFileSync(remote, 'run line 3\n');
    const [slice] = await capture.stop();
    expect(readFileSync(local, 'utf8')).toBe('run line 1\nrun line 2\nrun line 3\n');
    expect(slice).toMatchObject({
      kind: 'registry',
      file: 'zot.jsonl',
      startOffset: 22,
      endOffset: 55,
      sizeBytes: 33,
    });
    expect(slice?.warning).toBeUndefined();
  });

  it('a log rotated mid-run restarts from 0 and says so', async () => {
    const { remote, capture, local } = setup();
    await capture.start();
    appendFileSync(remote, 'before rotation\n');
    await capture.poll();
    writeFileSync(remote, 'new\n');
    await capture.poll();
    const [slice] = await capture.stop();
    expect(readFileSync(local, 'utf8')).toBe('new\n');
    expect(slice?.warning).toMatch(/shrank .* \(rotated\?\)/);
  });
});
