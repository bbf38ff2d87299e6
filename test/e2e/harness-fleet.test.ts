import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { boxTargets } from '../fleet/index.js';
import {
  expectedRunFiles,
  fetchManifestBytes,
  formatUploadTable,
  isWithin,
  readData,
  readLines,
  readRun,
  readTruth,
  spawnCli,
  useHarnessBox,
} from './harness-helpers.js';

// cold and warm on the fleet in a box (4 nodes, kiln WiFi-like): complete run dirs, figures against what the
// box injected, namespace and sccache isolation, and costs derived from traces. Placement: harness-placement.test.ts.

const { box, runs, runHarness } = useHarnessBox({
  fleet: { scale: { timeScale: 1 / 150, linkScale: 0.5 } },
  rootName: 'harness-runs',
  sampleIntervalMs: 500,
});

describe('cold and warm on the fleet in a box', () => {
  it('cold: finishes with a complete run dir, writing only into the coldrun namespace and its own sccache prefix', async () => {
    const runDir = await runHarness('cold', ['cold']);
    const run = readRun(runDir);
    expect(run).toMatchObject({
      harness: 'cold',
      mode: 'cold',
      namespace: 'rocm-coldrun',
      status: 'completed',
    });
    expect(readdirSync(runDir)).toEqual(expect.arrayContaining(expectedRunFiles(boxTargets)));
    const sampled = new Set(readLines(path.join(runDir, 'samples.jsonl')).map((sample) => sample.node));
    expect([...sampled].sort()).toEqual(['anvil', 'bench', 'forge', 'kiln']);
    const writes = readLines(path.join(runDir, 'zot.jsonl')).filter((line) =>
      ['PUT', 'POST', 'PATCH', 'DELETE'].includes(String(line.method)),
    );
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.filter((line) => !String(line.path).startsWith('/v2/rocm-coldrun/'))).toEqual([]);
    const sccache = readLines(path.join(runDir, 'sccache.log')).filter((line) =>
      ['PUT', 'MKCOL', 'GET'].includes(String(line.method)),
    );
    expect(sccache.length).toBeGreaterThan(0);
    expect(sccache.filter((line) => String(line.uri).startsWith('/sccache/rocm/gfx1201/'))).toEqual([]);
    const entries = sccache.filter((line) => ['PUT', 'GET'].includes(String(line.method)));
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.filter((line) => !String(line.uri).startsWith(`/sccache/${run.sccachePrefix}/`))).toEqual(
      [],
    );
    const data = readData(runDir);
    const truths = readTruth(box().fleet, run);
    console.log(`cold run, upload seconds:\n  ${formatUploadTable(data.summary.targets, truths)}`);
    expect([...truths.keys()].sort()).toEqual([...boxTargets].sort());
    for (const [target, truth] of truths) {
      expect(truth.cacheUploadedBytes).toBe(0);
      const summary = data.summary.targets.find((entry) => entry.target === target)!;
      expect(summary.uploadBytes).toBe(
        truth.imageUploadedBytes + (await fetchManifestBytes(box().fleet, 'rocm-coldrun', target, false)),
      );
      expect(truth.uploadSeconds).toBeGreaterThan(0);
      expect(
        isWithin(summary.uploadSeconds, truth.uploadSeconds, 0.1),
        `${target}: upload ${summary.uploadSeconds} s vs the box's ${truth.uploadSeconds} s`,
      ).toBe(true);
    }
  });

  it('warm: caches on and pushed; the export appears as upload, bytes exact, build and upload seconds within 10% of what the box did', async () => {
    const runDir = await runHarness('warm', ['warm']);
    const run = readRun(runDir);
    expect(run).toMatchObject({
      harness: 'warm',
      mode: 'warm',
      namespace: 'rocm',
      sccachePrefix: 'rocm/gfx1201',
      status: 'completed',
    });
    expect(readdirSync(runDir)).toEqual(expect.arrayContaining(expectedRunFiles(boxTargets)));
    const data = readData(runDir);
    expect(data.run.harness).toBe('warm');
    const truth = readTruth(box().fleet, run);
    const table: string[] = [];
    for (const summary of data.summary.targets) {
      const injected = truth.get(summary.target)!;
      const stepsSeconds = injected.buildStepsMs / 1000;
      table.push(
        `${summary.target} on ${injected.node}: build ${summary.buildSeconds?.toFixed(2)} s (steps the box ran ${stepsSeconds.toFixed(2)}, nominal ${injected.injectedBuildSeconds}), upload ${summary.uploadSeconds?.toFixed(3)} s (box ${injected.uploadSeconds.toFixed(3)}, bytes ÷ link ${injected.linkUploadSeconds.toFixed(3)}), bytes ${summary.uploadBytes} (truth ${injected.imageUploadedBytes + injected.cacheUploadedBytes})`,
      );
      expect(injected.cacheUploadedBytes).toBeGreaterThan(0);
      expect(summary.uploadsWithoutSize).toBe(0);
      const manifestBytes = await fetchManifestBytes(box().fleet, 'rocm', summary.target, true);
      expect(summary.uploadBytes).toBe(
        injected.imageUploadedBytes + injected.cacheUploadedBytes + manifestBytes,
      );
      // The export is a real upload: the cache blobs' PUTs are in the box's upload spans and in the report's.
      expect(injected.uploadSpansMs.length).toBeGreaterThan(0);
      expect(isWithin(summary.uploadSeconds, injected.uploadSeconds, 0.1), table.at(-1)).toBe(true);
      if (stepsSeconds >= 5)
        expect(isWithin(summary.buildSeconds, stepsSeconds, 0.1), table.at(-1)).toBe(true);
    }
    expect(truth.size).toBe(data.summary.targets.length);
    console.log(`warm run vs injected truth:\n  ${table.join('\n  ')}`);
  });

  it('costs --from the warm run rewrites target-costs from traces, and refuses the cold run’s bytes', async () => {
    const { fleet: running } = box();
    const out = path.join(box().root, 'target-costs.derived');
    const warm = await spawnCli(running, ['costs', '--from', runs.warm!, '--out', out]);
    expect(warm.exitCode, String(warm.stderr)).toBe(0);
    const text = readFileSync(out, 'utf8');
    const truth = readTruth(running, readRun(runs.warm!));
    for (const [target, entry] of truth) {
      const manifestBytes = await fetchManifestBytes(running, 'rocm', target, true);
      expect(text).toContain(
        `cache ${target} ${entry.imageUploadedBytes + entry.cacheUploadedBytes + manifestBytes}\n`,
      );
    }
    const cold = await spawnCli(running, ['costs', '--from', runs.cold!, '--dry-run']);
    expect(cold.exitCode).toBe(0);
    expect(String(cold.stderr)).toMatch(/is a cold run: its byte figures are refused/);
  });
});
