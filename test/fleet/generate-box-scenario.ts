// PURE: a larger fleet and graph drawn from the gfx1201 scenario's spread, for scale runs (issue 18 item 2): N nodes
// named after the scenario's, with its uplinks (one in six the WiFi-like 4.3 MB/s) and speeds 0.6–1.3; and a graph
// of about T targets: a few pytorch-like base images FROM rocm-base, each with wheels that link to it (and one in
// five to an earlier wheel too), costs drawn from the scenario's wheels and pytorch with ±30 % jitter.
import { parseTargetCosts } from '../../src/config/parse-target-costs.js';
import { createRandom, type Random } from '../../src/shared/random.js';
import type { BoxNodeSpec } from './box-scenario.js';

export interface GenerateBoxScenarioOptions {
  nodeCount: number;
  targetCount: number;
  seed?: number;
  /** The scenario's target-costs text (the spread costs are drawn from). */
  scenarioCostsText: string;
}

export interface GeneratedBoxScenario {
  nodes: BoxNodeSpec[];
  speeds: Record<string, number>;
  targets: string[];
  /** What fleet.yaml's `targets` lists: the two groups. */
  runTargets: string[];
  costsText: string;
  /** A `docker buildx bake --print` JSON in the scenario's registry (`registry.fleet.lan:5000`). */
  print: { group: Record<string, { targets: string[] }>; target: Record<string, Record<string, unknown>> };
}

const scenarioNodes = [
  { name: 'strix', linkMbps: 900 },
  { name: 'forge', linkMbps: 112 },
  { name: 'anvil', linkMbps: 105 },
  { name: 'bench', linkMbps: 280 },
] as const;
const wifiLinkMbps = 4.3;
const buildkitVersions = ['v0.28.1', 'v0.27.1'] as const;
const registry = 'registry.fleet.lan:5000';
/** One base image per this many targets (pytorch and its wheels, four times over for 100 targets). */
const targetsPerBase = 25;

const jitter = (random: Random, value: number) => value * (0.7 + 0.6 * random.next());
const round2 = (value: number) => Math.round(value * 100) / 100;

function toTargetSpec(name: string, contexts: Record<string, string>): Record<string, unknown> {
  const cache = `${registry}/rocm/cache:${name}-gfx1201`;
  return {
    context: '.',
    dockerfile: `docker/${name}.Dockerfile`,
    args: { GFX_ARCH: 'gfx1201', SCCACHE_WEBDAV_KEY_PREFIX: 'rocm/gfx1201' },
    tags: [`${registry}/rocm/${name}:gfx1201`],
    'cache-from': [{ ref: cache, type: 'registry' }],
    'cache-to': [{ mode: 'max', ref: cache, type: 'registry' }],
    platforms: ['linux/amd64'],
    output: [{ push: 'true', type: 'image' }],
    contexts,
  };
}

export function generateBoxScenario(options: GenerateBoxScenarioOptions): GeneratedBoxScenario {
  const random = createRandom(options.seed ?? 20261204);
  const { costs, errors } = parseTargetCosts(options.scenarioCostsText, 'scenario target-costs');
  if (errors.length > 0) throw new Error(errors.join('\n'));
  const base = costs.get('pytorch');
  const wheels = [...costs.entries()].filter(([name]) => name !== 'pytorch').map(([, cost]) => cost);
  if (base?.buildSeconds === undefined || base.cacheBytes === undefined || wheels.length === 0)
    throw new Error('the scenario target-costs needs pytorch and some wheels, each with build and cache');

  const nodes: BoxNodeSpec[] = [];
  const speeds: Record<string, number> = {};
  for (let i = 0; i < options.nodeCount; i++) {
    const kind = scenarioNodes[i % scenarioNodes.length]!;
    const name = `${kind.name}-${String(i + 1).padStart(2, '0')}`;
    const wifi = i % 6 === 5;
    nodes.push({
      name,
      scenarioLinkMbps: wifi ? wifiLinkMbps : round2(jitter(random, kind.linkMbps)),
      buildkitVersion: buildkitVersions[i % buildkitVersions.length]!,
    });
    speeds[name] = round2(0.6 + 0.7 * random.next());
  }

  const baseCount = Math.max(1, Math.round(options.targetCount / targetsPerBase));
  const bases = Array.from({ length: baseCount }, (_, i) => (i === 0 ? 'pytorch' : `pytorch-${i + 1}`));
  const wheelNames = Array.from(
    { length: Math.max(0, options.targetCount - baseCount) },
    (_, i) => `wheel-${String(i + 1).padStart(3, '0')}`,
  );
  const target: Record<string, Record<string, unknown>> = {};
  const lines: string[] = [];
  const baseContext = { 'rocm-base': `docker-image://${registry}/rocm/rocm-base:gfx1201` };
  for (const name of bases) {
    target[name] = toTargetSpec(name, baseContext);
    lines.push(`build ${name} ${Math.round(jitter(random, base.buildSeconds))}`);
    lines.push(`cache ${name} ${Math.round(jitter(random, base.cacheBytes))}`);
  }
  for (const [i, name] of wheelNames.entries()) {
    const from = bases[i % bases.length]!;
    const contexts: Record<string, string> = { ...baseContext, [from]: `target:${from}` };
    if (i >= bases.length && random.next() < 0.2) {
      const earlier = wheelNames[random.int(i)]!;
      contexts[earlier] = `target:${earlier}`;
    }
    target[name] = toTargetSpec(name, contexts);
    const cost = wheels[random.int(wheels.length)]!;
    lines.push(`build ${name} ${Math.round(jitter(random, cost.buildSeconds!))}`);
    lines.push(`cache ${name} ${Math.round(jitter(random, cost.cacheBytes!))}`);
  }
  return {
    nodes,
    speeds,
    targets: [...bases, ...wheelNames],
    runTargets: ['bases', 'wheels'],
    costsText: `# Generated by test/fleet/generate-box-scenario.ts from the gfx1201 scenario's spread.\n${lines.join('\n')}\n`,
    print: {
      group: {
        default: { targets: ['bases', 'wheels'] },
        bases: { targets: bases },
        wheels: { targets: wheelNames },
      },
      target,
    },
  };
}
