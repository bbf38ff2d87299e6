import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBuildkitTrace } from '../../src/collect/buildkit/parse-trace.js';
import { readData, readRun, spawnCli, useHarnessBox } from './harness-helpers.js';

// bench on the fleet in a box: every cache isolated, so a second bench of unchanged sources measures the same
// work as the first. Checked against nginx's own log (the second bench hit nothing in sccache) and the costs it
// derives (bytes refused).

const { box, runs, runHarness } = useHarnessBox({
  // Half the default scale keeps the suite's time down; pytorch still builds for about 18 s.
  fleet: { scale: { timeScale: 1 / 300 } },
  rootName: 'harness-bench',
  sampleIntervalMs: 1000,
});

/** nginx's sccache lines under a key prefix: entry reads that hit (200) and entry writes. */
function readSccacheTraffic(
  logPath: string,
  prefix: string,
): { hits: number; writes: number; reads: number } {
  const out = { hits: 0, writes: 0, reads: 0 };
  for (const text of readFileSync(logPath, 'utf8').split('\n')) {
    if (!text) continue;
    const line = JSON.parse(text) as { uri: string; method: string; status: number };
    if (!line.uri.startsWith(`/sccache/${prefix}/`) || !/\/[0-9a-f]{64}$/.test(line.uri)) continue;
    if (line.method === 'GET') {
      out.reads++;
      if (line.status === 200) out.hits++;
    }
    if (line.method === 'PUT') out.writes++;
  }
  return out;
}

/** The Dockerfile instructions (RUN, COPY, …) of a target's trace that BuildKit loaded from a cache. */
function readCachedInstructions(runDir: string, target: string): string[] {
  const text = readFileSync(path.join(runDir, `trace-${target}.json`), 'utf8');
  return parseBuildkitTrace(text, { source: target, target })
    .trace.steps.filter((step) => step.cached && step.instruction !== undefined)
    .map((step) => step.name);
}

/** Seconds the target's Dockerfile steps (RUN, COPY, …) ran, summed, from its trace. */
function readInstructionSeconds(runDir: string, target: string): number {
  const text = readFileSync(path.join(runDir, `trace-${target}.json`), 'utf8');
  return parseBuildkitTrace(text, { source: target, target })
    .trace.steps.filter((step) => step.instruction !== undefined)
    .reduce((sum, step) => sum + (step.endMs - step.startMs) / 1000, 0);
}

describe('bench on the fleet in a box', () => {
  it('a second bench of the same sources measures the same build seconds: no layer cache, a fresh sccache prefix, its own namespace', async () => {
    const first = await runHarness('bench-1', ['bench']);
    const second = await runHarness('bench-2', ['bench']);
    const table: string[] = [];
    const [a, b] = [readData(first), readData(second)];
    for (const [dir, run] of [first, second].map((d) => [d, readRun(d)] as const)) {
      expect(run, dir).toMatchObject({
        harness: 'bench',
        mode: 'cold',
        namespace: 'rocm-bench',
        status: 'completed',
      });
      const traffic = readSccacheTraffic(box().fleet.services.nginxLogPath, run.sccachePrefix);
      expect(traffic.reads, `${run.stamp} read no sccache entry under ${run.sccachePrefix}`).toBeGreaterThan(
        0,
      );
      expect(traffic.hits).toBe(0);
      expect(traffic.writes).toBe(traffic.reads);
    }
    for (const target of a.summary.targets) {
      const again = b.summary.targets.find((entry) => entry.target === target.target)!;
      // No Dockerfile step came from a layer cache. Real BuildKit still shows an input image already on the node
      // (`[context pytorch] …`, pulled by the first bench) as `load cache:` under --no-cache: that is an image
      // source, not a build step, and is allowed.
      for (const dir of [first, second])
        expect(readCachedInstructions(dir, target.target), `${target.target} in ${dir}`).toEqual([]);
      // Per target within 10 % plus 0.5 s: the box's non-CPU steps (runc starting the RUN container, COPY, sccache
      // writes over the shaped link) wobble by up to ~0.4 s on a shared 2-core host (seen on real BuildKit: 1.08 s,
      // then 1.45 s for a 1 s target), which matters on a 1 s build; a layer-cache hit would take a target's RUN
      // to ~0 s, and the sum over all targets is held to 10 % below. Compared on the
      // Dockerfile's own steps: build seconds also hold pulling the target's input images, which the first bench
      // pays on a node and the second finds there already (docs/harness.md, "bench").
      const [once, twice] = [first, second].map((dir) => readInstructionSeconds(dir, target.target));
      table.push(
        `${target.target}: build ${target.buildSeconds} s, then ${again.buildSeconds} s; its Dockerfile steps ${once!.toFixed(2)} s, then ${twice!.toFixed(2)} s`,
      );
      expect(Math.abs(twice! - once!), table.at(-1)).toBeLessThanOrEqual(0.1 * once! + 0.5);
    }
    console.log(`bench build seconds, first and second run:\n  ${table.join('\n  ')}`);
    const total = (dir: string) =>
      a.summary.targets.reduce((sum, entry) => sum + readInstructionSeconds(dir, entry.target), 0);
    expect(Math.abs(total(second) - total(first))).toBeLessThanOrEqual(0.1 * total(first));
    const costs = await spawnCli(box().fleet, ['costs', '--from', runs['bench-2']!, '--dry-run']);
    expect(costs.exitCode, String(costs.stderr)).toBe(0);
    expect(String(costs.stderr)).toMatch(
      /is a bench run: its byte figures are written as `image` lines and the cache lines kept/,
    );
  }, 600_000);
});
