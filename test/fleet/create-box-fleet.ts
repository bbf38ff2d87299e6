// Writes the box's fleet.yaml (validated with the product's own validateConfig), target-costs and bake print JSON.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { validateConfig } from '../../src/config/resolve-config.js';
import type { Config } from '../../src/config/schema.js';
import {
  addBaseImageTarget,
  buildBoxBakeDefinition,
  buildBoxCosts,
  defaultBoxScale,
  renderBoxTargetCosts,
  type BoxScale,
} from './box-scenario.js';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

/** How the box's sshd instances are reached; their host keys are in `knownHostsFile` (checked strictly). */
export interface BoxSsh {
  host: string;
  port: number;
  user: 'root';
  identityFile: string;
  knownHostsFile: string;
}

export interface BoxFleetNode {
  name: string;
  netns: string;
  address: string;
  /** The box's shaped upload rate in MB/s (scenario × linkScale). */
  linkMbps: number;
  /** Compile speed (fleet.yaml `speed`; the node's CPU quota is `cpuBaseCores` × speed); default 1. */
  speed?: number;
  nodeExporterUrl: string;
  ssh: BoxSsh;
  /** The builder's BuildKit release. */
  buildkitVersion: string;
  /** fleet.yaml buildkit_debug: the real engine's debug address in the node's namespace, where its release has one. */
  buildkitDebug?: string;
}

interface BoxFleetServices {
  /** The Zot-logging proxy clients use, `http://ADDR:PORT`. */
  registryUrl: string;
  sccacheUrl: string;
  zotLogPath: string;
  /** The registry's own log (stdout and stderr), read when `registryLog` is `distribution`. */
  registryLogPath: string;
  nginxLogPath: string;
  /** sshd on the services host (the bridge address), through which logs are read and the site is published. */
  ssh: BoxSsh;
}

export interface CreateBoxFleetOptions {
  dir: string;
  runId: string;
  nodes: readonly BoxFleetNode[];
  services: BoxFleetServices;
  scale?: BoxScale;
  scenarioDir?: string;
  /** The scenario's targets the box builds (default: the box's six). */
  targets?: readonly string[];
  /** fleet.yaml's `targets` (default: the scenario's `wheels` and `pytorch`). */
  runTargets?: readonly string[];
  /** Architectures with their own costs, bake graph and sccache prefix (fleet.yaml templates them); the first is fleet.yaml's. */
  arches?: readonly string[];
  /** Which registry log fleet.yaml reads: the proxy's Zot log (default) or the registry's own Distribution log. */
  registryLog?: 'zot' | 'distribution';
}

/** Each box node's memory: its memory cgroup's limit, and fleet.yaml's memory_gb. */
export const BOX_NODE_MEMORY_BYTES = 2 * 1024 ** 3;

/** Another arch's files: the scenario's, with its tags and args renamed, and build seconds × 1.5 (a cost set of its own). */
export const OTHER_ARCH_BUILD_FACTOR = 1.5;

export interface BoxFleetFiles {
  fleetPath: string;
  costsPath: string;
  bakePrintPath: string;
  config: Config;
}

/** The scenario's costs and bake graph: a given scenario dir, else the project's shipped gfx1201 files. */
export function readScenario(scenarioDir: string | undefined): { costs: string; print: string } {
  if (scenarioDir !== undefined) {
    const dir = scenarioDir;
    return {
      costs: readFileSync(path.join(dir, 'target-costs'), 'utf8'),
      print: readFileSync(path.join(dir, 'bake-print.json'), 'utf8'),
    };
  }
  return {
    costs: readFileSync(path.join(repoRoot, '.builders/target-costs'), 'utf8'),
    print: readFileSync(path.join(repoRoot, '.builders/bake-print.gfx1201.json'), 'utf8'),
  };
}

const toSsh = (ssh: BoxSsh) => ({
  host: ssh.host,
  user: ssh.user,
  port: ssh.port,
  identity_file: ssh.identityFile,
  known_hosts: ssh.knownHostsFile,
});

function buildBoxFleetYaml(options: CreateBoxFleetOptions): Record<string, unknown> {
  const { services, nodes } = options;
  return {
    arch: options.arches?.[0] ?? 'gfx1201',
    targets: [...(options.runTargets ?? ['wheels', 'pytorch'])],
    costs: 'target-costs.{arch}',
    bake: { print: 'bake-print.{arch}.json', arch_variable: 'GFX_ARCH' },
    registry: {
      url: services.registryUrl,
      name: 'rocm',
      cold_suffix: '-coldrun',
      ...(options.registryLog === 'distribution'
        ? { log_format: 'distribution', log: { ssh: toSsh(services.ssh), path: services.registryLogPath } }
        : { log_format: 'zot', log: { ssh: toSsh(services.ssh), path: services.zotLogPath } }),
      cache_patterns: ['*/cache:*'],
    },
    sccache: {
      url: services.sccacheUrl,
      key_prefix: 'rocm/{arch}',
      log: { ssh: toSsh(services.ssh), path: services.nginxLogPath },
    },
    nodes: nodes.map((node) => ({
      name: node.name,
      builder: node.name,
      link_mbps: node.linkMbps,
      ...(node.speed !== undefined && node.speed !== 1 ? { speed: node.speed } : {}),
      node_exporter: node.nodeExporterUrl,
      ssh: toSsh(node.ssh),
      address: node.address,
      // Real BuildKit's step containers: defaultCgroupParent <node>/compile (real/builders.ts) + `buildkit/<id>`.
      step_cgroups: `${node.netns}/compile/buildkit`,
      memory_gb: BOX_NODE_MEMORY_BYTES / 2 ** 30,
      // The real engine's buildkitd keeps the cache-key debug database where its release has one (builders.ts).
      ...(node.buildkitDebug === undefined ? {} : { buildkit_debug: node.buildkitDebug }),
    })),
    publish: { ssh: toSsh(services.ssh), path: path.join(options.dir, 'www') },
  };
}

export function createBoxFleet(options: CreateBoxFleetOptions): BoxFleetFiles {
  const scale = options.scale ?? defaultBoxScale;
  mkdirSync(options.dir, { recursive: true });
  const scenario = readScenario(options.scenarioDir);
  const costs = buildBoxCosts(scenario.costs, scale, options.targets);
  const registryHost = new URL(options.services.registryUrl).host;
  const arches = options.arches ?? ['gfx1201'];
  const filesOf = (arch: string) => ({
    costsPath: path.join(options.dir, `target-costs.${arch}`),
    bakePrintPath: path.join(options.dir, `bake-print.${arch}.json`),
  });
  const paths = {
    fleetPath: path.join(options.dir, 'fleet.yaml'),
    ...filesOf(arches[0] ?? 'gfx1201'),
  };
  for (const [index, arch] of arches.entries()) {
    const files = filesOf(arch);
    const factor = index === 0 ? 1 : OTHER_ARCH_BUILD_FACTOR;
    const archCosts = new Map(
      [...costs].map(([name, cost]) => [
        name,
        { ...cost, buildSeconds: Math.round(cost.buildSeconds * factor * 100) / 100 },
      ]),
    );
    writeFileSync(files.costsPath, renderBoxTargetCosts(archCosts, scale));
    const print = addBaseImageTarget(
      buildBoxBakeDefinition(scenario.print, registryHost, options.targets),
      registryHost,
      'gfx1201',
    );
    writeFileSync(files.bakePrintPath, `${JSON.stringify(print, null, 2).replaceAll('gfx1201', arch)}\n`);
  }
  const raw = buildBoxFleetYaml(options);
  const { config, errors } = validateConfig({ raw, source: paths.fleetPath });
  if (!config) throw new Error(`the generated box fleet.yaml is invalid:\n${errors.join('\n')}`);
  writeFileSync(
    paths.fleetPath,
    `# Fleet in a box (run ${options.runId}), generated by test/fleet/create-box-fleet.ts.\n${stringify(raw)}`,
  );
  return { ...paths, config };
}
