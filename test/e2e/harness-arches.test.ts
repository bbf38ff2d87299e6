import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTargetCosts } from '../../src/config/parse-target-costs.js';
import type { Plan, RunFile } from '../../src/artifacts/index.js';
import { boxTargets } from '../fleet/index.js';
import { isManifestPut, readRegistryTruth, type RegistryTruthLine } from '../fleet/registry-truth.js';
import { readRun, spawnCli, useHarnessBox } from './harness-helpers.js';

// `--arch` selects the architecture (issue 17 item 4). The box's fleet.yaml templates costs, the bake print and
// the sccache prefix with {arch}, and names GFX_ARCH as bake's arch variable; gfx1250 has its own cost set and
// bake graph (its tags and args say gfx1250). Two warm runs, gfx1250 then gfx1201, on one box: what crossed the
// wire (nginx's own log, the registry proxy's record) must stay under each run's own arch, and the plans must
// use each arch's own costs.

const arches = ['gfx1201', 'gfx1250'] as const;

const { box, runHarness } = useHarnessBox({
  fleet: { arches, scale: { timeScale: 1 / 300 } },
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
