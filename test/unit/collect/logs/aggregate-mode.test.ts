// `mode: 'aggregate'` of the readers: the writes one by one, everything else only counted, and the same answers
// as records mode — the summary equals summarize*(all records), the stats are identical — on generated logs,
// whole and windowed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateSccacheLog, generateZotLog } from '../../../../bench/generate-logs.js';
import { readRegistryLog } from '../../../../src/collect/log-reader/read-registry-log.js';
import { readSccacheLog } from '../../../../src/collect/log-reader/read-sccache-log.js';
import { parseLogFormat } from '../../../../src/collect/logs/parse-log-format.js';
import { shippedSccacheConf } from '../../../../src/collect/logs/shipped-sccache-conf.generated.js';
import { isRegistryWrite, summarizeRegistry } from '../../../../src/collect/logs/summarize-registry.js';
import { isSccacheWrite, summarizeSccache } from '../../../../src/collect/logs/summarize-sccache.js';

const dir = mkdtempSync(path.join(tmpdir(), 'rocm-perf-aggregate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const startMs = Date.UTC(2026, 2, 14, 8);
const hourMs = 3_600_000;
const windows = [{}, { fromMs: startMs + 20 * 60_000, toMs: startMs + 30 * 60_000 }];

describe.each(['zerolog', 'slog'] as const)('readRegistryLog mode aggregate (%s)', (layout) => {
  const file = path.join(dir, `zot-${layout}.jsonl`);
  generateZotLog({ path: file, sizeBytes: 2_000_000, startMs, spanMs: hourMs, layout, seed: 5 });
  const base = {
    path: file,
    format: 'zot' as const,
    cachePatterns: ['*/cache:*'],
    addressToNode: { '10.20.0.11': 'forge' },
  };

  it.each(windows)(
    'gives the writes and the summary of all records, with the same stats (%o)',
    async (window) => {
      const all = await readRegistryLog({ ...base, ...window });
      const aggregated = await readRegistryLog({ ...base, ...window, mode: 'aggregate' });
      expect(aggregated.stats).toEqual(all.stats);
      expect(aggregated.records).toEqual(all.records.filter(isRegistryWrite));
      expect(aggregated.summary).toEqual(summarizeRegistry(all.records));
      expect(aggregated.records.length).toBeGreaterThan(10);
      expect(all.summary).toBeUndefined();
    },
  );
});

describe('readSccacheLog mode aggregate', () => {
  const file = path.join(dir, 'sccache.log');
  const spec = parseLogFormat(shippedSccacheConf, 'sccache_json');
  generateSccacheLog({
    path: file,
    sizeBytes: 1_000_000,
    startMs,
    spanMs: hourMs,
    spec,
    prefix: 'rocm/gfx1201',
  });

  it.each(windows)(
    'gives the writes and the summary of all records, with the same stats (%o)',
    async (window) => {
      const summarize = { livePrefix: '/rocm/gfx1201/', runPrefix: 'rocm/other' };
      const all = await readSccacheLog({ path: file, ...window });
      const aggregated = await readSccacheLog({ path: file, ...window, mode: 'aggregate', summarize });
      expect(aggregated.stats).toEqual(all.stats);
      expect(aggregated.records).toEqual(all.records.filter(isSccacheWrite));
      expect(aggregated.summary).toEqual(summarizeSccache(all.records, summarize));
      expect(aggregated.summary?.live.hits).toBeGreaterThan(10);
    },
  );
});
