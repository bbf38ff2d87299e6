// The readers' running summaries: with `keep` holding some records or none, the summary equals summarize*(all
// records) and the stats are identical, on generated logs, whole and windowed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateSccacheLog, generateZotLog } from '../../../../bench/generate-logs.js';
import { readRegistryLog } from '../../../../src/collect/log-reader/read-registry-log.js';
import { readSccacheLog } from '../../../../src/collect/log-reader/read-sccache-log.js';
import { parseLogFormat } from '../../../../src/collect/logs/parse-log-format.js';
import { shippedSccacheConf } from '../../../../src/collect/logs/shipped-sccache-conf.generated.js';
import { summarizeRegistry } from '../../../../src/collect/logs/summarize-registry.js';
import type { RegistryRecord, SccacheRecord } from '../../../../src/collect/index.js';
import { summarizeSccache } from '../../../helpers/summarize-sccache.js';

// The writes, the records worth keeping one by one when only the writes matter (a `keep` a caller could pass).
const isRegistryWrite = (record: RegistryRecord): boolean =>
  record.kind === 'blob-write' || record.kind === 'manifest-write';
const isSccacheWrite = (record: SccacheRecord): boolean => record.kind === 'write';

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
    'keeps what keep accepts and summarises every record, with the same stats (%o)',
    async (window) => {
      const all = await readRegistryLog({ ...base, ...window });
      const writes = await readRegistryLog({ ...base, ...window, keep: isRegistryWrite });
      const none = await readRegistryLog({ ...base, ...window, keep: () => false });
      expect(writes.stats).toEqual(all.stats);
      expect(none.stats).toEqual(all.stats);
      expect(writes.records).toEqual(all.records.filter(isRegistryWrite));
      expect(writes.records.length).toBeGreaterThan(10);
      expect(none.records).toEqual([]);
      expect(none.summary).toEqual(summarizeRegistry(all.records));
      expect(all.summary).toEqual(none.summary);
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
    'keeps what keep accepts and summarises every record, with the same stats (%o)',
    async (window) => {
      const summarize = { livePrefix: '/rocm/gfx1201/', runPrefix: 'rocm/gfx1201' };
      const all = await readSccacheLog({ path: file, ...window, summarize });
      const none = await readSccacheLog({ path: file, ...window, summarize, keep: () => false });
      const writes = await readSccacheLog({ path: file, ...window, summarize, keep: isSccacheWrite });
      expect(none.stats).toEqual(all.stats);
      expect(none.records).toEqual([]);
      expect(writes.records).toEqual(all.records.filter(isSccacheWrite));
      expect(none.summary).toEqual(summarizeSccache(all.records, summarize));
      expect(none.summary.live.hits).toBeGreaterThan(10);
      expect(Object.values(none.summary.runByNode ?? {}).length).toBeGreaterThan(1);
    },
  );
});
