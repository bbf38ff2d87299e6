import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataFileSchema, RunIndexEntrySchema } from '../../../src/artifacts/index.js';
import type { RunIndexEntry } from '../../../src/artifacts/index.js';
import { applyRunIndexLines, summarizeLoadedRun } from '../../../src/report/run-index.js';
import { buildTrends, toTrendRun, toTrendRunFromEntry } from '../../../src/trends/index.js';

// The run index's lines are untrusted input (docs/history.md): each is held to the schema, a folder must be one
// plain path segment, and the last line of a folder wins. An entry made from the real sample run carries what
// trends need: trends built from entries equal trends built from the data.json models themselves.

const sample = (name: string) =>
  DataFileSchema.parse(
    JSON.parse(readFileSync(path.join(__dirname, '../../../fixtures/runs', name, 'data.json'), 'utf8')),
  );

const entryOf = (name: string, folder = name): RunIndexEntry =>
  summarizeLoadedRun({
    folder,
    sig: '1:2|3:4|-',
    loaded: { model: sample(name), runFile: undefined },
    mtimeMs: 0,
  });

describe('run index lines', () => {
  it('keeps a valid line, rejects a folder outside the root, a hidden one, a nested one and a non-JSON line', () => {
    const good = entryOf('gfx1201-warm');
    // What summarizeLoadedRun writes is what a reader accepts: the entry as a line, held to the shared schema.
    expect(RunIndexEntrySchema.safeParse(JSON.parse(JSON.stringify(good))).success).toBe(true);
    const lines = [
      good,
      { ...good, folder: '../outside' },
      { ...good, folder: '.hidden' },
      { ...good, folder: 'a/b' },
      { ...good, folder: 'a%2fb' },
      { ...good, targets: 'many' },
    ].map((e) => JSON.stringify(e));
    const entries = new Map<string, RunIndexEntry>();
    const read = applyRunIndexLines([...lines, '{not json', ''].join('\n'), entries);
    expect(read).toEqual({ lines: 7, rejected: 6 });
    expect([...entries.keys()]).toEqual(['gfx1201-warm']);
  });

  it('lets the last line of a folder win, and a removal drop it', () => {
    const a = entryOf('gfx1201-warm', 'a');
    const entries = new Map<string, RunIndexEntry>();
    applyRunIndexLines(
      [a, { ...a, status: 'failed' }, { ...entryOf('gfx1201-cold', 'b') }, { folder: 'b', removed: true }]
        .map((e) => JSON.stringify(e))
        .join('\n'),
      entries,
    );
    expect([...entries.keys()]).toEqual(['a']);
    expect(entries.get('a')!.status).toBe('failed');
  });

  it('carries what trends read: trends from entries equal trends from the data.json models', () => {
    const names = ['gfx1201-warm', 'gfx1201-cold'];
    const fromModels = buildTrends({ runs: names.map((n) => toTrendRun(sample(n))) });
    const fromEntries = buildTrends({ runs: names.map((n) => toTrendRunFromEntry(entryOf(n))) });
    expect(fromEntries).toEqual(fromModels);
    const warm = entryOf('gfx1201-warm');
    const model = sample('gfx1201-warm');
    expect(warm.makespanSeconds).toBe(model.summary.makespanSeconds);
    expect(warm.targets).toHaveLength(model.summary.targets.length);
    expect(warm.forecast?.percentile).toBe(model.summary.forecast?.percentile);
    const sccache = model.summary.sccache.total;
    expect(warm.sccacheHitRatio).toBeCloseTo(sccache.hits / (sccache.hits + sccache.misses), 4);
  });
});
