// Starts the whole fleet in a box: bridge, four node namespaces (shaped veth, node_exporter, sshd), services on
// the bridge (nginx with the shipped sccache conf, docker-registry behind the Zot-logging proxy, an sshd for log
// access), the generated fleet files and the `docker` double. `stop()` undoes all of it, also after a failed start.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  cleanupStaleLeftovers,
  createTempDir,
  findFreePort,
  isTcpOpen,
  startNginx,
  startNodeExporter,
  startRegistry,
  startSshd,
  type RunningSshd,
} from '../helpers/daemons/index.js';
import { boxNodes, defaultBoxScale, type BoxScale } from './box-scenario.js';
import {
  createBoxFleet,
  repoRoot,
  type BoxFleetFiles,
  type BoxFleetNode,
  type BoxSsh,
} from './create-box-fleet.js';
import { assertFleetCanStart } from './fleet-prerequisites.js';
import { createRunId } from './fleet-names.js';
import { fleetStateEnvVar, readFleetState } from './fleet-state.js';
import { installDockerDouble } from './install-double.js';
import { cleanupStaleFleets, createBridge, createNodeNetwork } from './network.js';
import { seedImage } from './seed-registry.js';
import { startZotProxy } from './zot-proxy.js';

export interface StartFleetOptions {
  scale?: Partial<BoxScale>;
  /** Fraction of a core the double's CPU burner spins during compile steps (default 1). */
  cpuDutyCycle?: number;
  /** Per-node compile speed (fleet.yaml `speed`; the double divides build seconds by it). Default 1 everywhere. */
  nodeSpeeds?: Readonly<Record<string, number>>;
}

export interface FleetNodeHandle extends BoxFleetNode {
  sshKnownHostsLine: string;
  rateBits: number;
}

export interface RunningFleet {
  runId: string;
  dir: string;
  fleetPath: string;
  statePath: string;
  /** PATH with the double first, plus the state variable: pass to the CLI under test. */
  env: { PATH: string; ROCM_PERF_FLEET_STATE: string };
  nodes: FleetNodeHandle[];
  services: {
    bridgeAddress: string;
    registryUrl: string;
    upstreamRegistryUrl: string;
    registryLogPath: string;
    sccacheUrl: string;
    nginxLogPath: string;
    nginxRoot: string;
    zotLogPath: string;
    ssh: BoxSsh;
  };
  knownHostsPath: string;
  files: BoxFleetFiles;
  /** Simulates a source change: the targets' layer cache misses on their next build (sccache still hits). */
  bumpRevisions: (targets?: readonly string[]) => void;
  stop: () => Promise<void>;
}

function bumpRevisionsIn(statePath: string, targets: readonly string[] | undefined): void {
  const state = readFleetState(statePath);
  for (const [name, target] of Object.entries(state.targets)) {
    if (targets === undefined || targets.includes(name))
      target.revision = String(Number(target.revision) + 1 || 2);
  }
  writeFileSync(statePath, `${JSON.stringify(state, null, 2)}\n`);
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

export async function startFleet(options: StartFleetOptions = {}): Promise<RunningFleet> {
  assertFleetCanStart();
  cleanupStaleLeftovers();
  cleanupStaleFleets();
  const unknownNodes = Object.keys(options.nodeSpeeds ?? {}).filter(
    (name) => !boxNodes.some((node) => node.name === name),
  );
  if (unknownNodes.length > 0)
    throw new Error(
      `startFleet nodeSpeeds: ${unknownNodes.join(', ')} is not a box node (${boxNodes.map((node) => node.name).join(', ')})`,
    );
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
    const registry = await startRegistry();
    stoppers.push(registry.stop);
    const zotLogPath = path.join(dir.path, 'zot.log');
    const proxy = await startZotProxy({
      host,
      port: await pickPort(host, 5000),
      upstreamUrl: registry.url,
      logPath: zotLogPath,
    });
    stoppers.push(proxy.stop);
    const nginx = await startNginx({
      confPath: path.join(repoRoot, '.builders/nginx-sccache.conf'),
      host,
      port: await pickPort(host, 8080),
    });
    stoppers.push(nginx.stop);
    const servicesSshd = await startSshd({ host });
    stoppers.push(servicesSshd.stop);
    for (const namespace of ['rocm', 'rocm-coldrun', 'rocm-bench'])
      await seedImage(registry.url, `${namespace}/rocm-base`, 'gfx1201');
    const nodes: FleetNodeHandle[] = [];
    for (const [index, spec] of boxNodes.entries()) {
      const linkMbps = Math.round(spec.scenarioLinkMbps * scale.linkScale * 1000) / 1000;
      const network = await createNodeNetwork({ runId, nodeName: spec.name, index, bridge, linkMbps });
      stoppers.push(network.remove);
      const exporter = await startNodeExporter({ netns: network.netns, host: network.address, port: 9100 });
      stoppers.push(exporter.stop);
      const sshd = await startSshd({ netns: network.netns, host: network.address, port: 22 });
      stoppers.push(sshd.stop);
      const speed = options.nodeSpeeds?.[spec.name];
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
      });
    }
    const services = {
      bridgeAddress: host,
      registryUrl: proxy.url,
      upstreamRegistryUrl: registry.url,
      registryLogPath: registry.logPath,
      sccacheUrl: nginx.url,
      nginxLogPath: nginx.logPath,
      nginxRoot: nginx.root,
      zotLogPath,
      ssh: toSsh(servicesSshd, knownHostsPath),
    };
    writeFileSync(
      knownHostsPath,
      `${[servicesSshd.knownHostsLine, ...nodes.map((n) => n.sshKnownHostsLine)].join('\n')}\n`,
    );
    const files = createBoxFleet({ dir: dir.path, runId, nodes, services, scale });
    if (options.cpuDutyCycle !== undefined)
      writeFileSync(
        files.statePath,
        JSON.stringify({ ...files.state, cpuDutyCycle: options.cpuDutyCycle }, null, 2),
      );
    const binDir = path.join(dir.path, 'bin');
    installDockerDouble(binDir);
    const env = {
      PATH: `${binDir}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      [fleetStateEnvVar]: files.statePath,
    };
    return {
      runId,
      dir: dir.path,
      fleetPath: files.fleetPath,
      statePath: files.statePath,
      env,
      nodes,
      services,
      knownHostsPath,
      files,
      bumpRevisions: (targets) => bumpRevisionsIn(files.statePath, targets),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
