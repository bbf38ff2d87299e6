import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as delay } from 'node:timers/promises';
import { createSampler, type CreateSamplerOptions, type Sampler } from '../../src/collect/index.js';
import type { Sample } from '../../src/artifacts/index.js';
import { sampleOnThread } from '../../src/run/sampling/sample-on-thread.js';
import { startNodeExporter, type RunningNodeExporter } from '../helpers/daemons/index.js';

// The harness samples on a thread of its own. Here the test's own thread is blocked for 3 s, as a spawn of a
// process blocks the harness until the child has exec'd on a loaded machine (Atomics.wait parks the thread the
// same way); Debian's node_exporter, a separate process, answers throughout. The times are the sampler's own
// stamps, taken where the scrape starts: the thread's keep their interval through the block, the same sampler on
// the blocked thread does not.

let exporter: RunningNodeExporter | undefined;
beforeAll(async () => {
  exporter = await startNodeExporter();
});
afterAll(async () => {
  await exporter?.stop();
});

/** The thread starts in a few ms from dist, but from source it first loads tsx and compiles collect/: wait. */
async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(50);
  }
}

const INTERVAL_MS = 250;
const BLOCK_MS = 3000;

async function sampleThroughBlock(create: (options: CreateSamplerOptions) => Sampler) {
  const samples: Sample[] = [];
  const sampler = create({
    nodes: [{ name: 'local', url: exporter?.url ?? '' }],
    sampleIntervalMs: INTERVAL_MS,
    timeoutMs: 2000,
    onSample: (sample) => samples.push(sample),
  });
  sampler.start();
  await waitFor(() => samples.length > 0, 'a first sample');
  await delay(1000);
  const blockedFromMs = Date.now();
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, BLOCK_MS);
  const blockedToMs = Date.now();
  await delay(1000);
  await sampler.stop();
  const times = samples.map((sample) => sample.tsMs);
  const spacings = times.slice(1).map((t, i) => t - times[i]!);
  return {
    samples,
    maxSpacingMs: Math.max(...spacings),
    duringBlock: times.filter((t) => t > blockedFromMs && t < blockedToMs).length,
  };
}

describe('the sampler on its own thread', () => {
  it('keeps its interval while the harness thread is blocked; on that thread the same sampler would not', async () => {
    const threaded = await sampleThroughBlock(sampleOnThread);
    const inline = await sampleThroughBlock(createSampler);
    console.log(
      `3 s block: on a thread ${threaded.duringBlock} samples during it, max spacing ${threaded.maxSpacingMs} ms; inline ${inline.duringBlock}, ${inline.maxSpacingMs} ms`,
    );
    expect(threaded.samples.every((sample) => sample.ok)).toBe(true);
    // 3 s at 250 ms: 12 scrapes; a loaded machine may stretch a few.
    expect(threaded.duringBlock).toBeGreaterThanOrEqual(8);
    expect(threaded.maxSpacingMs).toBeLessThan(1500);
    // The contrast that makes the thread worth having: inline, the block is one long spacing and no samples.
    expect(inline.duringBlock).toBe(0);
    expect(inline.maxSpacingMs).toBeGreaterThanOrEqual(BLOCK_MS - INTERVAL_MS);
  });

  it('stops: no sample arrives after stop() resolves, and a second stop is a no-op', async () => {
    const samples: Sample[] = [];
    const sampler = sampleOnThread({
      nodes: [{ name: 'local', url: exporter?.url ?? '' }],
      sampleIntervalMs: 100,
      onSample: (sample) => samples.push(sample),
    });
    sampler.start();
    await waitFor(() => samples.length > 2, 'three samples');
    await sampler.stop();
    const count = samples.length;
    expect(count).toBeGreaterThan(2);
    await delay(400);
    expect(samples.length).toBe(count);
    await sampler.stop();
  });

  it('records an unreachable node as gaps, as the sampler does, and passes an onSample failure to stop()', async () => {
    const samples: Sample[] = [];
    const sampler = sampleOnThread({
      nodes: [{ name: 'gone', url: 'http://127.0.0.1:9/metrics' }],
      sampleIntervalMs: 100,
      onSample: (sample) => {
        samples.push(sample);
        if (samples.length === 3) throw new Error('disk full');
      },
    });
    sampler.start();
    await waitFor(() => samples.length >= 3, 'three samples');
    await delay(200);
    await expect(sampler.stop()).rejects.toThrow('disk full');
    expect(samples.slice(0, 3).every((sample) => !sample.ok && /127\.0\.0\.1:9/.test(sample.error))).toBe(
      true,
    );
  });
});
