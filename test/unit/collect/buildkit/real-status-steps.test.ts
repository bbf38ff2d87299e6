// Step counts from real `bake --progress=rawjson` streams against the same builds' `history inspect` records
// (test/fixtures/buildkit-real/README.md), and the report reading them beside the trace.
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseStatusSteps } from '../../../../src/collect/index.js';
import { readTraceFile } from '../../../../src/run-dir/read-trace-files.js';
import { openRunDir } from '../../../../src/run-dir/open-run-dir.js';

const fixture = (name: string) => new URL(`../../../fixtures/buildkit-real/${name}`, import.meta.url);
const read = (name: string) => readFileSync(fixture(name), 'utf8');
const recordCounts = (name: string) => {
  const record = JSON.parse(read(name)) as { NumTotalSteps: number; NumCachedSteps: number };
  return { totalSteps: record.NumTotalSteps, cachedSteps: record.NumCachedSteps };
};

describe('parseStatusSteps agrees with history inspect on real builds', () => {
  it.each([
    [
      'rawjson-push-cache-max.jsonl',
      'history-inspect-push-cache-max.json',
      { totalSteps: 13, cachedSteps: 1 },
    ],
    ['rawjson-warm-cached.jsonl', 'history-inspect-warm-cached.json', { totalSteps: 13, cachedSteps: 3 }],
    [
      'rawjson-old-pair-push-cache-max.jsonl',
      'history-inspect-old-pair-push-cache-max.json',
      { totalSteps: 13, cachedSteps: 0 },
    ],
  ])('%s = %s', (stream, record, counts) => {
    expect(recordCounts(record)).toEqual(counts);
    expect(parseStatusSteps(read(stream), 'pytorch-wheel')).toEqual(counts);
  });

  it('gives no counts for a multi-target bake stream (names prefixed `[target] `, shared vertices merged)', () => {
    expect(recordCounts('history-inspect-two-targets-wheel.json')).toEqual({
      totalSteps: 14,
      cachedSteps: 0,
    });
    expect(parseStatusSteps(read('rawjson-two-targets-linked.jsonl'), 'pytorch-wheel')).toBeUndefined();
    expect(parseStatusSteps(read('rawjson-two-targets-linked.jsonl'), 'pytorch')).toBeUndefined();
  });
});

describe('the report takes step counts from status-<target>.jsonl beside the trace', () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it('counts 13 steps (1 cached) where the trace alone has 8, and the trace alone without the stream', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'rocm-perf-status-'));
    dirs.push(dir);
    const trace = path.join(dir, 'trace-pytorch-wheel.json');
    await copyFile(fixture('trace-push-cache-max.jaeger.json'), trace);
    const check = { run: undefined, nowMs: Date.now(), check: false };
    const alone = await readTraceFile(openRunDir(dir), path.basename(trace), check);
    expect(alone.trace).toMatchObject({ totalSteps: 8, cachedSteps: 1 });
    await copyFile(fixture('rawjson-push-cache-max.jsonl'), path.join(dir, 'status-pytorch-wheel.jsonl'));
    // A new handle: one handle reads each file once, and the stream was not there for the first.
    const both = await readTraceFile(openRunDir(dir), path.basename(trace), check);
    expect(both.trace).toMatchObject({ totalSteps: 13, cachedSteps: 1 });
    expect(both.trace?.steps).toHaveLength(8);
  });
});
