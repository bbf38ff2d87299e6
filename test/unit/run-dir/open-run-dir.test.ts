import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunFileRefusedError } from '../../../src/shared/open-run-file.js';
import { openRunDir } from '../../../src/run-dir/open-run-dir.js';
import { readDataFile } from '../../../src/run-dir/read-data-file.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rocm-perf-run-dir-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('a run dir handle', () => {
  it('reads a file once: a change after the first read is not seen through the same handle, and is through a new one', async () => {
    writeFileSync(path.join(dir, 'lane.txt'), 'nightly\n');
    const runDir = openRunDir(dir);
    expect(await runDir.readText('lane.txt')).toBe('nightly\n');
    writeFileSync(path.join(dir, 'lane.txt'), 'other\n');
    expect(await runDir.readText('lane.txt')).toBe('nightly\n');
    expect(await openRunDir(dir).readText('lane.txt')).toBe('other\n');
  });

  it('takes a text without keeping it: the next read sees the file as it is then', async () => {
    writeFileSync(path.join(dir, 'trace-a.json'), 'first');
    const runDir = openRunDir(dir);
    expect(await runDir.readText('trace-a.json')).toBe('first');
    expect(await runDir.takeText('trace-a.json')).toBe('first');
    writeFileSync(path.join(dir, 'trace-a.json'), 'second');
    expect(await runDir.takeText('trace-a.json')).toBe('second');
    expect(await runDir.takeText('absent.json')).toBeUndefined();
  });

  it('says undefined for an absent file and refuses a link every time it is asked', async () => {
    const outside = path.join(dir, '..', `${path.basename(dir)}-secret`);
    writeFileSync(outside, 'secret');
    symlinkSync(outside, path.join(dir, 'run.json'));
    const runDir = openRunDir(dir);
    try {
      expect(await runDir.readText('plan.json')).toBeUndefined();
      await expect(runDir.readText('run.json')).rejects.toBeInstanceOf(RunFileRefusedError);
      await expect(runDir.readBytes('run.json')).rejects.toBeInstanceOf(RunFileRefusedError);
    } finally {
      rmSync(outside, { force: true });
    }
  });

  it('opens a sibling once per command: the same handle for the same path', () => {
    const runDir = openRunDir(path.join(dir, 'a'));
    expect(runDir.open(path.join(dir, 'b'))).toBe(runDir.open(path.join(dir, 'x', '..', 'b')));
    expect(runDir.open(path.join(dir, 'a'))).toBe(runDir);
    expect(openRunDir(path.join(dir, 'b'))).not.toBe(runDir.open(path.join(dir, 'b')));
  });
});

describe('data.json', () => {
  it('is absent, not JSON, or not this version’s schema, each said with the file', async () => {
    expect(await readDataFile(openRunDir(dir))).toEqual({ state: 'absent' });
    writeFileSync(path.join(dir, 'data.json'), '{"version":');
    expect(await readDataFile(openRunDir(dir))).toMatchObject({
      state: 'bad',
      file: path.join(dir, 'data.json'),
      why: expect.stringMatching(/^is not JSON \(/) as unknown,
    });
    writeFileSync(path.join(dir, 'data.json'), '{"version": 1}');
    expect(await readDataFile(openRunDir(dir))).toMatchObject({
      state: 'bad',
      why: expect.stringMatching(/^does not match this rocm-perf's data.json schema \(/) as unknown,
    });
  });
});
