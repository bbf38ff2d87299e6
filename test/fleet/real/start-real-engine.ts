// The fleet in a box's real engine (start-fleet.ts calls it for engine `real`): the bake project in the fleet dir, a
// buildkitd per node, a buildx builder per node, and the saved bake prints replaced by real `bake --print` output.
import { execFile } from 'node:child_process';
import { readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { baseImageTarget, buildBoxBakeDefinition, buildBoxCosts, type BoxScale } from '../box-scenario.js';
import { OTHER_ARCH_BUILD_FACTOR } from '../create-box-fleet.js';
import { printBake, writeBakeProject, type StepWork } from './bake-project.js';
import {
  createBuildxBuilders,
  createDockerConfig,
  startRealBuilder,
  unmountUnder,
  type RealBuilder,
} from './builders.js';
import { findToolBinary } from './tools.js';

const execFileAsync = promisify(execFile);

/** What the engine needs of a started node (start-fleet.ts's FleetNodeHandle). */
interface RealEngineNode {
  name: string;
  netns: string;
  buildkitVersion: string;
  cgroup: { name: string; dirs: Record<string, string>; workDirs: { compileCpuacct: string } };
}

export interface StartRealEngineOptions {
  dir: string;
  nodes: readonly RealEngineNode[];
  registryHost: string;
  sccacheUrl: string;
  scale: BoxScale;
  /** The scenario's files (create-box-fleet.ts readScenario). */
  scenario: { costs: string; print: string };
  targets: readonly string[];
  arches: readonly string[];
  cpuBaseCores: number;
  buildxVersion: string;
  /** Builders whose wall clock is off, in whole seconds (skewed-buildx.ts moves what buildx reports of them). */
  clockSkews?: Readonly<Record<string, number>>;
  /** Every target attests provenance in mode=max (StartFleetOptions.provenance). */
  provenance: boolean;
  /** Targets whose RUN step is told its work outright (bake-project.ts StepWork). */
  stepWork?: Readonly<Record<string, StepWork>>;
  stoppers: (() => Promise<void> | void)[];
}

/**
 * The real engine: the bake project in the fleet dir, a buildkitd per node, a buildx builder per node, and the
 * saved bake prints (per arch) replaced by real `bake --print` output.
 */
export async function startRealEngine(options: StartRealEngineOptions) {
  const { dir, nodes, stoppers } = options;
  // The scenario's print cut to the box's targets, as the box's saved print is (box-scenario.ts).
  const { group, target } = buildBoxBakeDefinition(
    options.scenario.print,
    options.registryHost,
    options.targets,
  );
  const keep = new Set(options.targets);
  const costs = buildBoxCosts(options.scenario.costs, options.scale, options.targets);
  const groups = Object.fromEntries(Object.entries(group ?? {}).map(([name, g]) => [name, g.targets]));
  writeBakeProject({
    dir,
    targets: options.targets.map((name) => ({
      name,
      buildSeconds: costs.get(name)!.buildSeconds,
      exportBytes: costs.get(name)!.exportBytes,
      links: Object.values((target[name]?.contexts ?? {}) as Record<string, string>)
        .filter((value) => value.startsWith('target:'))
        .map((value) => value.slice('target:'.length))
        .filter((link) => keep.has(link)),
      ...(options.stepWork?.[name] ? { work: options.stepWork[name] } : {}),
    })),
    groups,
    registryHost: options.registryHost,
    sccacheEndpoint: options.sccacheUrl,
    arches: options.arches.map((arch, index) => [arch, index === 0 ? 1 : OTHER_ARCH_BUILD_FACTOR] as const),
    cpuBaseCores: options.cpuBaseCores,
    sccacheEntryBytes: options.scale.sccacheEntryBytes,
    provenance: options.provenance,
    rootfs: path.join(dir, 'base', 'rootfs'),
  });
  const { dockerConfig, buildxLink } = createDockerConfig(dir, options.buildxVersion, options.clockSkews);
  const env = { DOCKER_CONFIG: dockerConfig };
  stoppers.push(() => unmountUnder(path.join(dir, 'buildkit')));
  const builders = new Map<string, RealBuilder>();
  for (const node of nodes) {
    const builder = await startRealBuilder({
      node: {
        name: node.name,
        netns: node.netns,
        cgroupName: node.cgroup.name,
        cgroupDirs: Object.values(node.cgroup.dirs),
        compileCpuacctDir: node.cgroup.workDirs.compileCpuacct,
        buildkitVersion: node.buildkitVersion,
      },
      dir,
      registryHost: options.registryHost,
    });
    stoppers.push(() => builder.stop());
    builders.set(node.name, builder);
  }
  createBuildxBuilders({ env, builders: [...builders.values()] });
  const restarts: Promise<void>[] = [];
  stoppers.push(() => Promise.allSettled(restarts).then(() => undefined));
  // What a user's `bake --print` names: the groups (but `default`, which would nest them), the targets in none of
  // those, and the base image target outside every group.
  const named = Object.entries(groups).filter(([name]) => name !== 'default');
  const printTargets = [
    ...named.map(([name]) => name),
    ...options.targets.filter((target) => !named.some(([, members]) => members.includes(target))),
    baseImageTarget,
  ];
  for (const arch of options.arches) {
    const text = printBake({ dir, env, arch, targets: [...new Set(printTargets)] });
    writeFileSync(path.join(dir, `bake-print.${arch}.json`), text);
  }
  return {
    dockerConfig,
    targets: options.targets,
    countBuildRecords: async () => {
      let count = 0;
      for (const name of builders.keys()) {
        const { stdout } = await execFileAsync(
          'docker',
          ['buildx', 'history', 'ls', '--builder', name, '--format', 'json', '--no-trunc'],
          { env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 },
        );
        count += stdout.split('\n').filter((line) => line.trim().startsWith('{')).length;
      }
      return count;
    },
    useBuildx: (version: string) => {
      const current = readlinkSync(buildxLink);
      const swap = (target: string) => {
        rmSync(buildxLink, { force: true });
        symlinkSync(target, buildxLink);
      };
      swap(findToolBinary('buildx', version, 'buildx'));
      return () => swap(current);
    },
    killBuilder: (node: string) => {
      const builder = builders.get(node);
      if (!builder) throw new Error(`killBuilder: ${node} is not a box node`);
      const killed = builder.kill();
      if (killed > 0) restarts.push(builder.restart());
      return killed;
    },
  };
}
