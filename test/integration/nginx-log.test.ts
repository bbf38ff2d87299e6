// Debian's nginx + dav-ext running the shipped conf (test/helpers/daemons): sccache-like WebDAV traffic, then the
// log it wrote is read back through readSccacheLog / createLogTail and must count exactly what was sent.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSccacheTraffic, sendDav } from '../../scripts/capture-nginx-fixtures.js';
import { createLogTail, createSccacheParser, readSccacheLog } from '../../src/collect/index.js';
import { summarizeSccache } from '../helpers/summarize-sccache.js';
import { findStreamWarnings } from '../../src/artifacts/index.js';
import type { RunningNginx } from '../helpers/daemons/index.js';
import { startNginx } from '../helpers/daemons/index.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
let nginx: RunningNginx;

beforeAll(async () => {
  nginx = await startNginx({ confPath: path.join(repoRoot, '.builders/nginx-sccache.conf') });
});
afterAll(async () => {
  await nginx?.stop();
});

/** nginx writes the access line after the response; wait until the log holds `records` records. */
async function readWhenComplete(options: Parameters<typeof readSccacheLog>[0], records: number) {
  for (let attempt = 0; ; attempt++) {
    const result = await readSccacheLog(options);
    if (result.records.length >= records || attempt > 50) return result;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the sccache log written by nginx with the shipped conf', () => {
  it('counts hits, misses, writes and bytes exactly, per prefix and per node, within a window', async () => {
    await sendDav(`${nginx.url}rocm/old/.sccache_check`, 'GET');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const fromMs = Date.now();
    const live = await runSccacheTraffic(nginx.url, 'rocm/gfx1201');
    const cold = await runSccacheTraffic(nginx.url, 'rocm/gfx1201-coldrun-7');
    const { records, stats } = await readWhenComplete(
      {
        path: nginx.logPath,
        fromMs,
        toMs: Date.now() + 1000,
        slackMs: 0,
        addressToNode: { '127.0.0.1': 'strix' },
      },
      56,
    );
    expect(findStreamWarnings(stats)).toEqual([]);
    expect(stats).toMatchObject({ rejected: 0, records: 56 });
    expect(stats.skippedByReason).toEqual({ 'before window': 1 });
    const summary = summarizeSccache(records, {
      livePrefix: 'rocm/gfx1201',
      runPrefix: 'rocm/gfx1201-coldrun-7',
    });
    expect(summary.live).toMatchObject({ ...live, bytesUnknown: 0 });
    expect(summary.run).toMatchObject({ ...cold, bytesUnknown: 0 });
    expect(summary.byNode.strix?.writes).toBe(live.writes + cold.writes);
    expect(records.every((record) => record.tsMs >= fromMs && record.node === 'strix')).toBe(true);
  });

  it('a tail returns only what was appended since its last read', async () => {
    const tail = createLogTail({ path: nginx.logPath, ...createSccacheParser(), fromMs: Date.now() });
    expect((await tail.read()).records).toEqual([]);
    await sendDav(`${nginx.url}rocm/tail/e/3/b/e3b0c44298fc`, 'PUT', { body: Buffer.alloc(4321) });
    await sendDav(`${nginx.url}rocm/tail/e/3/b/e3b0c44298fc`, 'GET');
    let seen: string[] = [];
    for (let attempt = 0; seen.length < 2 && attempt < 50; attempt++) {
      seen = [...seen, ...(await tail.read()).records.map((record) => `${record.kind}:${record.bytes}`)];
      if (seen.length < 2) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(seen).toEqual(['write:4321', 'hit:4321']);
  });
});
