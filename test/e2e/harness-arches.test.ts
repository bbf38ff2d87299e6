import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTargetCosts } from '../../src/config/parse-target-costs.js';
import type { Plan, RunFile } from '../../src/artifacts/index.js';
import { boxTargets } from '../fleet/index.js';
import { isManifestPut, readRegistryTruth, type RegistryTruthLine } from '../fleet/registry-truth.js';
import { readData, readLines, readRun, runDirOf, spawnCli, useHarnessBox } from './harness-helpers.js';

// `--arch` selects the architecture (issue 17 item 4). The box's fleet.yaml templates costs, the bake print and
// the sccache prefix with {arch}, and names GFX_ARCH as bake's arch variable; gfx1250 has its own cost set and
// bake graph (its tags and args say gfx1250). Two warm runs, gfx1250 then gfx1201, on one box: what crossed the
// wire (nginx's own log, the registry proxy's record) must stay under each run's own arch, and the plans must
// use each arch's own costs. Then, on the same box, a cold run into a fresh namespace that bootstraps the base
// image (was harness-bootstrap.test.ts: its own box for one run). Every check here is about names, prefixes, order
// and the plans' cost figures, none about how long a build took, so the box runs at 1/600 (was 1/300).

const arches = ['gfx1201', 'gfx1250'] as const;

const { box, runHarness } = useHarnessBox({
  fleet: { arches, scale: { timeScale: 1 / 600 } },
  rootName: 'harness-arches',
  sampleIntervalMs: 1000,
});

interface NginxLine {
  msec: number;
  method: string;
  uri: string;
  status: number;
}

/** nginx's sccache entry requests (GET/PUT of a key) during the run, on the services host's clock. */
function readSccacheEntries(logPath: string, run: RunFile): NginxLine[] {
  const from = run.startedAtMs;
  const to = run.finishedAtMs ?? Number.POSITIVE_INFINITY;
  return readFileSync(logPath, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((text) => JSON.parse(text) as NginxLine)
    .filter((line) => line.msec * 1000 >= from && line.msec * 1000 <= to)
    .filter((line) => ['GET', 'PUT'].includes(line.method) && /\/[0-9a-f]{64}$/.test(line.uri));
}

/** The manifests the registry stored during the run (the proxy's 201s): `repo:reference`. */
function readStoredManifests(truth: readonly RegistryTruthLine[], run: RunFile): string[] {
  const to = run.finishedAtMs ?? Number.POSITIVE_INFINITY;
  return truth
    .filter((line) => isManifestPut(line) && line.status === 201)
    .filter((line) => line.firstByteMs >= run.startedAtMs && line.endMs <= to)
    .map((line) => {
      const match = /^\/v2\/(.+?)\/manifests\/(.+)$/.exec(line.path)!;
      return `${match[1]}:${decodeURIComponent(match[2]!)}`;
    });
}

describe('two architectures on one box', () => {
  it('each warm run builds its own arch: its sccache prefix, its image and cache tags, its cost set', async () => {
    const { fleet } = box();
    const makespans = new Map<string, number>();
    for (const arch of ['gfx1250', 'gfx1201'] as const) {
      const dir = await runHarness(arch, ['warm', '--arch', arch]);
      const run = readRun(dir);
      expect(run).toMatchObject({ arch, status: 'completed', sccachePrefix: `rocm/${arch}` });

      // The plan used this arch's cost file: the build seconds in plan.json are the ones in that file, which
      // differ between the two arches (independently parsed here).
      const costsFile = path.join(path.dirname(fleet.fleetPath), `target-costs.${arch}`);
      const { costs } = parseTargetCosts(readFileSync(costsFile, 'utf8'), costsFile);
      const plan = JSON.parse(readFileSync(path.join(dir, 'plan.json'), 'utf8')) as Plan;
      makespans.set(arch, plan.makespanSeconds);
      // Every box node has speed 1, so a target's planned build term is the file's figure.
      for (const target of boxTargets)
        expect(plan.targets[target]?.buildSeconds, `${arch} ${target}`).toBeCloseTo(
          costs.get(target)!.buildSeconds!,
          6,
        );

      // sccache: every entry this run read or wrote was under its own arch's prefix, and it wrote some.
      const entries = readSccacheEntries(fleet.services.nginxLogPath, run);
      expect(entries.filter((line) => line.method === 'PUT').length, arch).toBeGreaterThan(0);
      expect(
        entries.filter((line) => !line.uri.startsWith(`/sccache/rocm/${arch}/`)).map((line) => line.uri),
      ).toEqual([]);

      // Registry: every manifest stored during the run is one of this arch's tags, one image and one cache
      // manifest per target (digests of a multi-manifest push count as this arch's too).
      const stored = readStoredManifests(readRegistryTruth(fleet.services.registryTruthPath), run);
      const tags = stored.filter((ref) => !/:sha256:[0-9a-f]{64}$/.test(ref));
      for (const target of boxTargets) {
        expect(tags, arch).toContain(`rocm/${target}:${arch}`);
        expect(tags, arch).toContain(`rocm/cache:${target}-${arch}`);
      }
      const other = arches.find((name) => name !== arch)!;
      expect(tags.filter((ref) => ref.includes(other))).toEqual([]);
    }
    // The two cost sets differ (gfx1250's builds take 1.5× as long on the box), and so do the planned makespans.
    expect(makespans.get('gfx1250')!).toBeGreaterThan(makespans.get('gfx1201')! * 1.2);
  }, 600_000);

  it('refuses an arch the fleet has no files for, naming the missing file', async () => {
    const { fleet } = box();
    const result = await spawnCli(fleet, ['plan', '--arch', 'gfx942']);
    expect(result.exitCode).toBe(2);
    expect(String(result.stderr)).toMatch(/gfx942/);
    expect(String(result.stderr)).toContain(`target-costs.gfx942`);
  });
});

// A fresh cold namespace builds the whole stack from nothing (issue 17 item 6). The box's bake graph has the base
// image as a target outside the run's groups; `PERF_COLD_NAMESPACE=-fresh` points the cold run at a namespace
// the registry has never seen, so preflight finds rocm-base missing there and bootstrap builds and pushes it before
// the measured run. The registry proxy's own record says when each manifest was stored: the base image before any
// measured target's first request, and the makespan and the bootstrap time each on their side of that line.

const namespace = 'rocm-coldrun-fresh';
const measuredTargets = ['pytorch', 'pytorch-wheel', 'triton-wheel'];

describe('a cold run into a fresh namespace', () => {
  it('bootstraps the base image first (pushed, not sampled), then measures the wheels; bootstrap time is shown apart from the makespan', async () => {
    const { fleet, root } = box();
    const result = await spawnCli(
      fleet,
      ['cold', '--targets', measuredTargets.join(','), '--root', root, '--sample-interval-ms', '500'],
      { PERF_COLD_NAMESPACE: '-fresh' },
    );
    expect(result.exitCode, String(result.stderr).slice(-3000)).toBe(0);
    const runDir = runDirOf(String(result.stdout));
    const run = readRun(runDir);
    expect(run).toMatchObject({
      harness: 'cold',
      namespace,
      status: 'completed',
      bootstrapped: ['rocm-base'],
    });
    expect(Object.keys(run.targets).sort()).toEqual([...measuredTargets].sort());

    // The registry's side: when the base image and each measured image were stored in the fresh namespace.
    const truth = readRegistryTruth(fleet.services.registryTruthPath).filter(
      (line) => line.firstByteMs >= run.startedAtMs,
    );
    const stored = (repository: string) =>
      truth.find(
        (line) =>
          isManifestPut(line) && line.status === 201 && line.path === `/v2/${repository}/manifests/gfx1201`,
      )?.endMs;
    const baseStoredMs = stored(`${namespace}/rocm-base`);
    expect(baseStoredMs, 'the base image was pushed into the fresh namespace').toBeDefined();
    const firstMeasuredRequestMs = Math.min(
      ...truth
        .filter((line) =>
          measuredTargets.some((target) => line.path.startsWith(`/v2/${namespace}/${target}/`)),
        )
        .map((line) => line.firstByteMs),
    );
    expect(firstMeasuredRequestMs).toBeGreaterThan(baseStoredMs!);
    for (const target of measuredTargets) expect(stored(`${namespace}/${target}`), target).toBeDefined();

    // Not sampled: the first sample is after the base image was stored.
    const samples = readLines(path.join(runDir, 'samples.jsonl'));
    expect(samples.length).toBeGreaterThan(0);
    const firstSampleMs = Math.min(...samples.map((sample) => Number(sample.tsMs)));
    expect(Number.isFinite(firstSampleMs), JSON.stringify(samples[0])).toBe(true);
    expect(firstSampleMs).toBeGreaterThan(baseStoredMs!);

    // The report: the bootstrap time covers at least the bootstrap node's registry work as the proxy saw it (its
    // first request, the cache import, to the base image stored), and ends before any measured target's first
    // request; the makespan starts after it (no more than from the base image stored to the run's end).
    const data = readData(runDir);
    const bootstrapNode = fleet.nodes.find((node) => node.name === run.bootstrap?.[0]?.node);
    expect(bootstrapNode, JSON.stringify(run.bootstrap)).toBeDefined();
    const nodeFirstRequestMs = Math.min(
      ...truth.filter((line) => line.clientIp === bootstrapNode!.address).map((line) => line.firstByteMs),
    );
    const baseWorkSeconds = (baseStoredMs! - nodeFirstRequestMs) / 1000;
    expect(data.summary.bootstrap?.targets.map((build) => build.target)).toEqual(['rocm-base']);
    expect(data.summary.bootstrap!.seconds).toBeGreaterThanOrEqual(baseWorkSeconds);
    expect(data.summary.bootstrap!.seconds).toBeLessThanOrEqual(
      (firstMeasuredRequestMs - run.startedAtMs) / 1000,
    );
    expect(data.summary.makespanSeconds!).toBeLessThanOrEqual((run.finishedAtMs! - baseStoredMs!) / 1000);
    const report = readFileSync(path.join(runDir, 'report.md'), 'utf8');
    expect(report).toMatch(
      /Bootstrap before the measured run: .* building rocm-base on \w+ \(.*\), warm and pushed, not sampled, and not in the makespan above\./,
    );
    console.log(
      `bootstrap ${data.summary.bootstrap!.seconds} s (proxy: ${bootstrapNode!.name}'s first request to base image stored ${baseWorkSeconds.toFixed(2)} s), makespan ${data.summary.makespanSeconds} s`,
    );
  }, 600_000);
});
