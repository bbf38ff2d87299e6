// Starts the whole fleet in a box: bridge, one namespace per node (shaped veth, a cgroup with the node's CPU
// quota, node_exporter reading the node's own /proc, sshd), services on the bridge (nginx with the shipped
// sccache conf, docker-registry behind the Zot-logging proxy, an sshd for log access), the generated fleet files
// and the real build engine (test/fleet/real/). `stop()` undoes all of it, also after a failed start.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import {
  cleanupStaleLeftovers,
  createTempDir,
  findFreePort,
  isTcpOpen,
  startNginx,
  startNodeExporter,
  startRegistry,
  startRestartableDaemon,
  startSshd,
  type RunningSshd,
} from '../helpers/daemons/index.js';
import {
  boxScenarios,
  defaultBoxScale,
  type BoxNodeSpec,
  type BoxScale,
  type BoxScenarioName,
} from './box-scenario.js';
import {
  BOX_NODE_MEMORY_BYTES,
  createBoxFleet,
  readScenario,
  repoRoot,
  type BoxFleetFiles,
  type BoxFleetNode,
  type BoxSsh,
} from './create-box-fleet.js';
import { assertFleetCanStart } from './fleet-prerequisites.js';
import { createRunId } from './fleet-names.js';
import { bundleFleetScript } from './bundle-fleet-script.js';
import { cleanupStaleFleets, createBridge, createNodeNetwork, type FleetNodeNetwork } from './network.js';
import { cleanupStaleCgroups, createNodeCgroup, type NodeCgroup } from './node-cgroups.js';
import type { NodeProcConfig } from './node-proc-writer.js';
import { generateBoxScenario } from './generate-box-scenario.js';
import { startClockKeeper, toSkewedClockEnv } from './skewed-clock.js';
import type { StartZotProxyOptions } from './zot-proxy.js';
import { writeBaseRootfs, packBaseLayer, pushBaseImage } from './real/base-image.js';
import { bumpSourceRevisions, type StepWork } from './real/bake-project.js';
import { startRealEngine } from './real/start-real-engine.js';
import { BOX_DEBUG_ADDRESS, hasCacheDebug } from './real/builders.js';
import { buildBoxCompile, findEngineBlocker, pinnedVersion } from './real/tools.js';

import { baseImageTarget } from './box-scenario.js';

export interface StartFleetOptions {
  scale?: Partial<BoxScale>;
  /** Which cut of the gfx1201 scenario: `box` (4 nodes, 6 targets; default) or `gfx1201` (5 nodes, 13 targets). */
  scenario?: BoxScenarioName;
  /** Per-node compile speed (fleet.yaml `speed`; the node's CPU quota is cpuBaseCores × speed). Default 1. */
  nodeSpeeds?: Readonly<Record<string, number>>;
  /**
   * Per-node BuildKit release: a version pinned in test/tools/versions.txt (default the `current` one).
   */
  buildkitVersions?: Readonly<Record<string, string>>;
  /** The buildx release: a pinned one (default `current`). */
  buildxVersion?: string;
  /** Cores of a speed-1 node's quota; default min(0.25, 0.3 × this host's cores ÷ Σ speeds). */
  cpuBaseCores?: number;
  /**
   * Wall clocks off by whole seconds: a builder's (what buildx reports of it: build records, trace spans, the rawjson
   * stream; real/skewed-buildx.ts), and the services host's (libfaketime, skewed-clock.ts: nginx's log, the Zot-log
   * proxy's log and truth record, `date` over its sshd).
   */
  clockOffsetSeconds?: { builders?: Readonly<Record<string, number>>; services?: number };
  /** Architectures with their own costs, bake graph, base image and sccache prefix; the first is fleet.yaml's (default gfx1201). */
  arches?: readonly string[];
  /**
   * A generated fleet of this many nodes and a graph of about `targetCount` targets (default 100), drawn from the
   * scenario's spread (generate-box-scenario.ts), instead of `scenario`'s cut. Speeds come with it (`nodeSpeeds`
   * still overrides).
   */
  nodeCount?: number;
  targetCount?: number;
  /** The registry proxy fails every Nth layer upload with a 500 (BuildKit retries it); 0 = never. Default 9. */
  failLayerPutEvery?: number;
  /**
   * A CNCF Distribution `registry` binary to run behind the proxy instead of Debian's docker-registry, with
   * fleet.yaml reading that registry's own log (`log_format: distribution`) rather than the proxy's Zot log
   * (scripts/compare-distribution-registry.ts). The proxy still keeps its record of every request.
   */
  distributionRegistry?: string;
  /**
   * Real engine: every target of the bake file attests `type=provenance,mode=max` (the evidence of
   * docs/cache-debug.md). Default off: BuildKit writes the attestation inside the build, which adds about 0.5 s to a
   * box target's build seconds (measured on harness-fleet's warm run: bitsandbytes-wheel on kiln, 0.59 s beyond its
   * CPU at quota without it, 1.16 s with it), beyond what the build-seconds check allows (its probe attests nothing). The cache-key debug database
   * is always on where the release has it (no measurable cost).
   */
  provenance?: boolean;
  /** Real engine: targets whose RUN step burns and allocates what it is told (the step-usage truth test). */
  stepWork?: Readonly<Record<string, StepWork>>;
}

export interface FleetNodeHandle extends BoxFleetNode {
  sshKnownHostsLine: string;
  rateBits: number;
  /** The node's cgroups and CPU quota (cores). */
  cgroup: NodeCgroup;
  /** The directory its node_exporter reads as /proc. */
  procDir: string;
}

export interface RunningFleet {
  runId: string;
  dir: string;
  fleetPath: string;
  /**
   * Pass to the CLI under test: DOCKER_CONFIG (the pinned buildx as the docker CLI's plugin, a builder per node).
   */
  env: { PATH: string; DOCKER_CONFIG: string };
  nodes: FleetNodeHandle[];
  services: {
    bridgeAddress: string;
    registryUrl: string;
    upstreamRegistryUrl: string;
    registryLogPath: string;
    sccacheUrl: string;
    nginxLogPath: string;
    /** nginx's pid file: `kill -USR1 $(cat …)` makes it reopen its logs. */
    nginxPidPath: string;
    nginxRoot: string;
    zotLogPath: string;
    /** The registry proxy's own record of every request (registry-truth.ts). */
    registryTruthPath: string;
    ssh: BoxSsh;
  };
  /** Cores of a speed-1 node's CPU quota. */
  cpuBaseCores: number;
  knownHostsPath: string;
  files: BoxFleetFiles;
  /** Dropped links on demand: each takes a daemon or a builder away for a while, as a real fleet does. */
  faults: {
    /** The services host's sshd (log access) down for `downMs`, open connections dropped. */
    restartServicesSshd: (downMs: number) => Promise<void>;
    /** A node's node_exporter down for `downMs`. */
    stopNodeExporter: (node: string, downMs: number) => Promise<void>;
    /** The registry (its proxy, the address the nodes push to) refusing connections for `downMs`. */
    refuseRegistry: (downMs: number) => Promise<void>;
    /**
     * Kills everything the builder of `node` runs (SIGKILL): a builder that vanishes mid-target. Returns how many
     * RUN processes it killed: 0, and nothing killed, when none was running. Its buildkitd is started again on the
     * same root at once, as a service manager would.
     */
    killBuilder: (node: string) => number;
  };
  /** Build records every builder holds (`history ls`). */
  countBuildRecords: () => Promise<number>;
  /**
   * Makes the box's `docker buildx` another release until the returned restore is called: the plugin's link points
   * at that pinned build (test/tools/versions.txt).
   */
  useBuildx: (version: string) => () => void;
  /**
   * Freezes the registry proxy (SIGSTOP: requests wait in their sockets, no line is written to the Zot log or the
   * truth file) until the returned resume is called (SIGCONT). For tests that must rotate the Zot log without
   * logrotate's own copytruncate race (lines appended between its copy and its truncate are lost).
   */
  pauseRegistryProxy: () => () => void;
  /** Simulates a source change: the targets' layer cache misses on their next build (sccache still hits). */
  bumpRevisions: (targets?: readonly string[]) => void;
  stop: () => Promise<void>;
}

async function pickPort(host: string, preferred: number): Promise<number> {
  return (await isTcpOpen(host, preferred)) ? findFreePort(host) : preferred;
}

const toSsh = (sshd: RunningSshd, knownHostsFile: string): BoxSsh => ({
  host: sshd.host,
  port: sshd.port,
  user: sshd.user,
  identityFile: sshd.privateKeyPath,
  knownHostsFile,
});

function toNodeSpecs(
  options: StartFleetOptions,
  nodes: readonly BoxNodeSpec[] = boxScenarios[options.scenario ?? 'box'].nodes,
): BoxNodeSpec[] {
  for (const [what, map] of [
    ['nodeSpeeds', options.nodeSpeeds],
    ['buildkitVersions', options.buildkitVersions],
    ['clockOffsetSeconds.builders', options.clockOffsetSeconds?.builders],
  ] as const) {
    const unknown = Object.keys(map ?? {}).filter((name) => !nodes.some((node) => node.name === name));
    if (unknown.length > 0)
      throw new Error(
        `startFleet ${what}: ${unknown.join(', ')} is not a box node (${nodes.map((node) => node.name).join(', ')})`,
      );
  }
  return nodes.map((node) => ({
    ...node,
    buildkitVersion: options.buildkitVersions?.[node.name] ?? node.buildkitVersion,
  }));
}

/**
 * A speed-1 node's cores: all nodes compiling at once take 30 % of this host, leaving the rest to the uploads, the
 * registry, the proxy and the harness, whose timing the tests check. (Build seconds do not depend on it.)
 */
export function toCpuBaseCores(speeds: readonly number[], hostCores = availableParallelism()): number {
  const total = speeds.reduce((sum, speed) => sum + speed, 0);
  return Math.min(0.25, Math.floor((0.3 * hostCores * 100) / total) / 100);
}

/** The node's /proc: stat, meminfo, loadavg from the writer; the rest links to the real one (net: the reader's). */
function createProcDir(dir: string): string {
  mkdirSync(dir, { recursive: true });
  for (const [name, target] of [
    ['net', '/proc/self/net'],
    ['self', '/proc/self'],
    ['1', '/proc/1'],
    ['diskstats', '/proc/diskstats'],
    ['mounts', '/proc/mounts'],
    ['sys', '/proc/sys'],
  ])
    symlinkSync(target!, path.join(dir, name!));
  return dir;
}

async function startNodeProcWriter(options: { dir: string; config: NodeProcConfig }) {
  const configPath = path.join(options.dir, 'node-proc.json');
  writeFileSync(configPath, JSON.stringify(options.config, null, 2));
  const argv = bundleFleetScript(
    path.join(repoRoot, 'test/fleet/node-proc-writer.ts'),
    path.join(options.dir, 'node-proc-writer.mjs'),
  );
  const statFiles = options.config.nodes.map((node) => path.join(node.procDir, 'stat'));
  return startRestartableDaemon({
    name: 'node /proc writer',
    command: process.execPath,
    args: [...argv, configPath],
    logPath: path.join(options.dir, 'node-proc-writer.log'),
    isReady: () => Promise.resolve(statFiles.every((file) => existsSync(file))),
  });
}

/** The Zot-logging proxy in its own process (it raises its own priority): its clock is the upload truth. */
async function startProxyProcess({
  dir,
  options,
  env,
}: {
  dir: string;
  options: StartZotProxyOptions;
  env: Record<string, string>;
}) {
  const configPath = path.join(dir, 'zot-proxy.json');
  writeFileSync(configPath, JSON.stringify(options, null, 2));
  const argv = bundleFleetScript(
    path.join(repoRoot, 'test/fleet/zot-proxy-main.ts'),
    path.join(dir, 'zot-proxy.mjs'),
  );
  const daemon = await startRestartableDaemon({
    name: 'Zot-logging registry proxy',
    command: process.execPath,
    args: [...argv, configPath],
    logPath: path.join(dir, 'zot-proxy.log'),
    env: { ...process.env, ...env },
    isReady: () => isTcpOpen(options.host, options.port),
  });
  return {
    url: `http://${options.host}:${options.port}`,
    stop: daemon.stop,
    outage: daemon.outage,
    pid: daemon.pid,
  };
}

export async function startFleet(options: StartFleetOptions = {}): Promise<RunningFleet> {
  assertFleetCanStart();
  const engineBlocker = findEngineBlocker();
  if (engineBlocker) throw new Error(engineBlocker);
  cleanupStaleLeftovers();
  cleanupStaleFleets();
  cleanupStaleCgroups();
  const generated =
    options.nodeCount === undefined
      ? undefined
      : generateBoxScenario({
          nodeCount: options.nodeCount,
          targetCount: options.targetCount ?? 100,
          scenarioCostsText: readFileSync(path.join(repoRoot, '.builders/target-costs'), 'utf8'),
        });
  const specs = toNodeSpecs(options, generated?.nodes);
  const scenario = generated ?? boxScenarios[options.scenario ?? 'box'];
  const speedOf = (name: string) => options.nodeSpeeds?.[name] ?? generated?.speeds[name] ?? 1;
  const cpuBaseCores = options.cpuBaseCores ?? toCpuBaseCores(specs.map((spec) => speedOf(spec.name)));
  const scale = { ...defaultBoxScale, ...options.scale };
  const runId = createRunId();
  const stoppers: (() => Promise<void> | void)[] = [];
  const stop = async () => {
    for (const fn of stoppers.splice(0).reverse()) await Promise.resolve(fn()).catch(() => undefined);
  };
  try {
    const dir = createTempDir(`fleet-${runId}`);
    stoppers.push(dir.remove);
    const knownHostsPath = path.join(dir.path, 'known_hosts');
    const bridge = await createBridge(runId);
    stoppers.push(bridge.remove);
    const host = bridge.address;
    const registry = await startRegistry(
      options.distributionRegistry === undefined ? {} : { command: options.distributionRegistry },
    );
    stoppers.push(registry.stop);
    const zotLogPath = path.join(dir.path, 'zot.log');
    const registryTruthPath = path.join(dir.path, 'registry-truth.jsonl');
    const clockKeeper =
      (options.clockOffsetSeconds?.services ?? 0) !== 0 ? await startClockKeeper() : undefined;
    if (clockKeeper) stoppers.push(clockKeeper.stop);
    const servicesClock = toSkewedClockEnv(options.clockOffsetSeconds?.services, clockKeeper?.shared);
    const proxy = await startProxyProcess({
      dir: dir.path,
      env: servicesClock,
      options: {
        host,
        port: await pickPort(host, 5000),
        upstreamUrl: registry.url,
        logPath: zotLogPath,
        truthPath: registryTruthPath,
        failLayerPutEvery: (options.failLayerPutEvery ?? 9) || undefined,
      },
    });
    stoppers.push(proxy.stop);
    const nginx = await startNginx({
      confPath: path.join(repoRoot, '.builders/nginx-sccache.conf'),
      host,
      port: await pickPort(host, 8080),
      env: servicesClock,
    });
    stoppers.push(nginx.stop);
    const servicesSshd = await startSshd({ host, sessionEnv: servicesClock });
    stoppers.push(servicesSshd.stop);
    const baseLayer = packBaseLayer(writeBaseRootfs(path.join(dir.path, 'base'), buildBoxCompile()));
    for (const namespace of ['rocm', 'rocm-coldrun', 'rocm-bench'])
      for (const arch of options.arches ?? ['gfx1201'])
        await pushBaseImage(registry.url, `${namespace}/${baseImageTarget}`, arch, baseLayer);
    const prepared: {
      spec: BoxNodeSpec;
      network: FleetNodeNetwork;
      cgroup: NodeCgroup;
      procDir: string;
      linkMbps: number;
    }[] = [];
    for (const [index, spec] of specs.entries()) {
      const linkMbps = Math.round(spec.scenarioLinkMbps * scale.linkScale * 1000) / 1000;
      const network = await createNodeNetwork({ runId, nodeName: spec.name, index, bridge, linkMbps });
      stoppers.push(network.remove);
      const cgroup = createNodeCgroup({
        runId,
        nodeName: spec.name,
        quotaCores: cpuBaseCores * speedOf(spec.name),
        memoryLimitBytes: BOX_NODE_MEMORY_BYTES,
      });
      stoppers.push(cgroup.remove);
      const procDir = createProcDir(path.join(dir.path, 'proc', spec.name));
      prepared.push({ spec, network, cgroup, procDir, linkMbps });
    }
    const writer = await startNodeProcWriter({
      dir: dir.path,
      config: {
        bootMs: Date.now(),
        intervalMs: 100,
        nodes: prepared.map(({ spec, cgroup, procDir }) => ({
          name: spec.name,
          procDir,
          cpuacctDir: cgroup.dirs.cpuacct,
          memoryDir: cgroup.dirs.memory,
          quotaCores: cgroup.quotaCores,
          memoryLimitBytes: cgroup.memoryLimitBytes,
        })),
      },
    });
    stoppers.push(writer.stop);
    const nodes: FleetNodeHandle[] = [];
    const exporters = new Map<string, { outage: (downMs: number) => Promise<void> }>();
    for (const { spec, network, cgroup, procDir, linkMbps } of prepared) {
      const exporter = await startNodeExporter({
        netns: network.netns,
        host: network.address,
        port: 9100,
        procfsPath: procDir,
      });
      stoppers.push(exporter.stop);
      exporters.set(spec.name, exporter);
      const sshd = await startSshd({ netns: network.netns, host: network.address, port: 22 });
      stoppers.push(sshd.stop);
      const speed = options.nodeSpeeds?.[spec.name] ?? generated?.speeds[spec.name];
      nodes.push({
        name: spec.name,
        netns: network.netns,
        address: network.address,
        linkMbps,
        ...(speed === undefined ? {} : { speed }),
        nodeExporterUrl: exporter.url,
        ssh: toSsh(sshd, knownHostsPath),
        sshKnownHostsLine: sshd.knownHostsLine,
        rateBits: network.rateBits,
        buildkitVersion: options.buildkitVersions?.[spec.name] ?? pinnedVersion('buildkit', 'current'),
        ...(hasCacheDebug(options.buildkitVersions?.[spec.name] ?? pinnedVersion('buildkit', 'current'))
          ? { buildkitDebug: BOX_DEBUG_ADDRESS }
          : {}),
        cgroup,
        procDir,
      });
    }
    const services = {
      bridgeAddress: host,
      registryUrl: proxy.url,
      upstreamRegistryUrl: registry.url,
      registryLogPath: registry.logPath,
      sccacheUrl: nginx.url,
      nginxLogPath: nginx.logPath,
      nginxPidPath: nginx.pidPath,
      nginxRoot: nginx.root,
      zotLogPath,
      registryTruthPath,
      ssh: toSsh(servicesSshd, knownHostsPath),
    };
    writeFileSync(
      knownHostsPath,
      `${[servicesSshd.knownHostsLine, ...nodes.map((n) => n.sshKnownHostsLine)].join('\n')}\n`,
    );
    let scenarioDir: string | undefined;
    if (generated) {
      scenarioDir = path.join(dir.path, 'scenario');
      mkdirSync(scenarioDir);
      writeFileSync(path.join(scenarioDir, 'target-costs'), generated.costsText);
      writeFileSync(path.join(scenarioDir, 'bake-print.json'), JSON.stringify(generated.print, null, 2));
    }
    const files = createBoxFleet({
      dir: dir.path,
      ...(generated ? { scenarioDir, runTargets: generated.runTargets } : {}),
      runId,
      nodes,
      services,
      scale,
      targets: scenario.targets,
      ...(options.arches ? { arches: options.arches } : {}),
      ...(options.distributionRegistry === undefined ? {} : { registryLog: 'distribution' as const }),
    });
    const real = await startRealEngine({
      dir: dir.path,
      nodes,
      registryHost: new URL(proxy.url).host,
      sccacheUrl: nginx.url,
      scale,
      scenario: readScenario(scenarioDir),
      targets: scenario.targets,
      arches: options.arches ?? ['gfx1201'],
      cpuBaseCores,
      ...(options.stepWork ? { stepWork: options.stepWork } : {}),
      buildxVersion: options.buildxVersion ?? pinnedVersion('buildx', 'current'),
      clockSkews: options.clockOffsetSeconds?.builders ?? {},
      provenance: options.provenance ?? false,
      stoppers,
    });
    return {
      runId,
      dir: dir.path,
      fleetPath: files.fleetPath,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        DOCKER_CONFIG: real.dockerConfig,
      },
      nodes,
      services,
      cpuBaseCores,
      knownHostsPath,
      files,
      faults: {
        restartServicesSshd: (downMs) => servicesSshd.outage(downMs),
        stopNodeExporter: (node, downMs) => {
          const exporter = exporters.get(node);
          if (!exporter) throw new Error(`stopNodeExporter: ${node} is not a box node`);
          return exporter.outage(downMs);
        },
        refuseRegistry: (downMs) => proxy.outage(downMs),
        killBuilder: (node) => real.killBuilder(node),
      },
      countBuildRecords: () => real.countBuildRecords(),
      useBuildx: (version) => real.useBuildx(version),
      pauseRegistryProxy: () => {
        const pid = proxy.pid();
        process.kill(pid, 'SIGSTOP');
        return () => process.kill(pid, 'SIGCONT');
      },
      bumpRevisions: (targets) => bumpSourceRevisions(dir.path, targets ?? real.targets),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
