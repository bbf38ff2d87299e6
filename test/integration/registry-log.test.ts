// Debian's docker-registry (CNCF Distribution, JSON log): a cache export and an image push, then its log is read
// back through readRegistryLog; written sizes come from the registry itself (fetchBlobSizes), never as 0.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRegistrySizes } from '../../src/run-dir/read-registry-sizes-file.js';
import { writeRegistrySizes } from '../../src/run/cache-logs/write-registry-sizes.js';
import { runRegistryTraffic } from '../../scripts/capture-registry-fixtures.js';
import type { PushExpectation } from '../../scripts/capture-registry-fixtures.js';
import { fetchBlobSizes, readRegistryLog, summarizeRegistry } from '../../src/collect/index.js';
import type { RunningRegistry } from '../helpers/daemons/index.js';
import { startRegistry } from '../helpers/daemons/index.js';
import { openRunDir } from '../../src/run-dir/open-run-dir.js';

let registry: RunningRegistry;
let expected: PushExpectation;
let fromMs: number;

beforeAll(async () => {
  registry = await startRegistry();
  fromMs = Date.now() - 1;
  expected = await runRegistryTraffic(registry.url);
});
afterAll(async () => {
  await registry?.stop();
});

async function readLog() {
  for (let attempt = 0; ; attempt++) {
    const result = await readRegistryLog({
      path: registry.logPath,
      format: 'distribution',
      cachePatterns: ['*/cache:*'],
      fromMs,
      addressToNode: { '127.0.0.1': 'strix' },
    });
    if (result.records.length >= 24 || attempt > 50) return result;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the docker-registry JSON log', () => {
  it('counts blob and manifest writes cache vs image, and marks their sizes unknown', async () => {
    const { records, stats } = await readLog();
    expect(stats).toMatchObject({ records: 24, rejected: 0 });
    expect(stats.skippedByReason['not JSON']).toBe(24);
    const summary = summarizeRegistry(records);
    expect(summary.cache).toMatchObject({
      blobsWritten: expected.cache.blobsWritten,
      manifestsWritten: expected.cache.manifestsWritten,
      bytesWritten: 0,
      bytesUnknown: 3,
    });
    expect(summary.image).toMatchObject({
      blobsWritten: expected.image.blobsWritten,
      manifestsWritten: expected.image.manifestsWritten,
      bytesWritten: 0,
      bytesUnknown: 3,
    });
    expect(summary.byNode.strix?.cache.blobsWritten).toBe(expected.cache.blobsWritten);
  });

  it('takes the written sizes from the registry with HEAD requests', async () => {
    const { records } = await readLog();
    const missing = {
      ...records.find((record) => record.kind === 'blob-write')!,
      reference: `sha256:${'0'.repeat(64)}`,
    };
    const {
      records: sized,
      fetched,
      failures,
    } = await fetchBlobSizes({ registryUrl: registry.url, records: [...records, missing] });
    expect(fetched).toBe(6);
    expect(failures).toEqual([
      { url: `${registry.url}/v2/rocm/cache/blobs/sha256:${'0'.repeat(64)}`, error: 'HEAD answered 404' },
    ]);
    const blobBytes = (isCache: boolean) =>
      sized
        .filter(
          (record) => record.kind === 'blob-write' && record.isCache === isCache && record !== sized.at(-1),
        )
        .reduce((sum, record) => sum + (record.bytes ?? Number.NaN), 0);
    expect(blobBytes(true)).toBe(expected.cache.blobBytes);
    expect(blobBytes(false)).toBe(expected.image.blobBytes);
    expect(sized.at(-1)?.bytes).toBeNull();
    const summary = summarizeRegistry(sized.slice(0, -1));
    expect(summary.cache.bytesUnknown + summary.image.bytesUnknown).toBe(0);
    expect(summary.cache.bytesWritten).toBeGreaterThan(expected.cache.blobBytes);
  });

  it('the harness keeps the sizes in registry-sizes.json, and the report reads every write sized', async () => {
    const runDir = mkdtempSync(path.join(tmpdir(), 'registry-sizes-'));
    try {
      await readLog();
      copyFileSync(registry.logPath, path.join(runDir, 'zot.jsonl'));
      const written = await writeRegistrySizes({
        runDir,
        sliceFile: 'zot.jsonl',
        registryUrl: registry.url,
        cachePatterns: ['*/cache:*'],
        nowMs: () => 1,
      });
      expect(written).toEqual({ unsized: 6, sized: 6, warnings: [] });
      const sizes = await readRegistrySizes(openRunDir(runDir));
      const { summary } = await readRegistryLog({
        path: path.join(runDir, 'zot.jsonl'),
        format: 'distribution',
        cachePatterns: ['*/cache:*'],
        sizes,
      });
      expect(summary.cache.bytesUnknown + summary.image.bytesUnknown).toBe(0);
      // The blobs' sizes are the bodies the traffic pushed; manifests add their own.
      expect(summary.cache.bytesWritten).toBeGreaterThan(expected.cache.blobBytes);
      expect(summary.image.bytesWritten).toBeGreaterThan(expected.image.blobBytes);
      const blobBytes = (repository: string) =>
        Object.entries(sizes ?? {})
          .filter(([key]) => key.startsWith(`${repository}@sha256:`))
          .reduce((sum, [, bytes]) => sum + bytes, 0);
      expect(blobBytes('rocm/cache')).toBe(expected.cache.blobBytes);
      expect(blobBytes('rocm/api')).toBe(expected.image.blobBytes);
    } finally {
      rmSync(runDir, { recursive: true, force: true });
    }
  });
});
