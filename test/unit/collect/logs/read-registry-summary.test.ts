import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateZotLog } from '../../../../bench/generate-logs.js';
import { readRegistryLog } from '../../../../src/collect/log-reader/read-registry-log.js';
import { readRegistrySummary } from '../../../../src/collect/log-reader/read-registry-log-on-thread.js';
import { RegistryThreadReplySchema } from '../../../../src/collect/log-reader/registry-thread-protocol.js';

// report summarises a large registry log on a thread (read-registry-log-on-thread.ts) while it reads the run's other
// files. What comes back must be what the same read gives in place, and a log the thread cannot read fails in place
// with the error it always had.

const dir = mkdtempSync(path.join(tmpdir(), 'rocm-perf-registry-thread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = path.join(dir, 'zot.jsonl');
generateZotLog({
  path: file,
  sizeBytes: 2_000_000,
  startMs: Date.UTC(2026, 2, 14, 8),
  spanMs: 3_600_000,
  layout: 'slog',
  seed: 5,
});
const options = {
  path: file,
  format: 'zot' as const,
  cachePatterns: ['*/cache:*'],
  addressToNode: { '10.0.0.5': 'forge' },
};

describe('readRegistrySummary', () => {
  it('summarises on its thread what readRegistryLog summarises in place', { timeout: 60_000 }, async () => {
    const inPlace = await readRegistryLog({ ...options, keep: () => false });
    expect(inPlace.summary.requests).toBeGreaterThan(1000);
    const onThread = await readRegistrySummary(options, { threadBytes: 0 });
    expect(onThread.readOn).toBe('thread');
    expect(onThread.summary).toEqual(inPlace.summary);
    expect(onThread.stats).toEqual(inPlace.stats);
    expect(onThread.records).toEqual([]);
  });

  it("holds the thread's reply to its schema: a summary out of shape is refused", async () => {
    const { stats, summary } = await readRegistryLog({ ...options, keep: () => false });
    expect(RegistryThreadReplySchema.safeParse({ stats, summary }).success).toBe(true);
    expect(RegistryThreadReplySchema.safeParse({ stats, summary: 'summary' }).success).toBe(false);
    expect(RegistryThreadReplySchema.safeParse({ stats: { ...stats, lines: -1 }, summary }).success).toBe(
      false,
    );
    const { byNode: _byNode, ...noNodes } = summary;
    expect(RegistryThreadReplySchema.safeParse({ stats, summary: noNodes }).success).toBe(false);
  });

  it('reads a small log here', async () => {
    expect((await readRegistrySummary(options)).readOn).toBe('here');
  });

  it('fails here, as in place, when the log is a link', { timeout: 60_000 }, async () => {
    const link = path.join(dir, 'linked.jsonl');
    symlinkSync(file, link);
    const inPlace = await readRegistryLog({ ...options, path: link }).catch((error: unknown) => error);
    expect(inPlace).toBeInstanceOf(Error);
    await expect(readRegistrySummary({ ...options, path: link }, { threadBytes: 0 })).rejects.toThrow(
      (inPlace as Error).message,
    );
  });
});
