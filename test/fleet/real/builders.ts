// One real buildkitd per box node, inside the node's network namespace (nsenter --net: `ip netns exec` would also
// remount /sys and hide the cgroup hierarchies runc needs) and the node's cgroups, with the OCI worker (runc,
// overlayfs). Its RUN containers go under <node>/compile (`defaultCgroupParent`), where the node's CPU quota holds
// them and cpuacct counts them apart; the daemon's own work (layer compression, pushes) is counted in the node's
// cgroup. It talks plain HTTP to the box registry. Each node is a buildx builder (`remote` driver) in a test-only
// DOCKER_CONFIG whose cli-plugins/docker-buildx is the pinned buildx.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startDaemon, type DaemonProcess } from '../../helpers/daemons/index.js';
import { bundleFleetScript, shellQuote } from '../bundle-fleet-script.js';
import { repoRoot } from '../create-box-fleet.js';
import { listCgroupTree } from '../node-cgroups.js';
import { findToolBinary } from './tools.js';

export interface RealBuilderNode {
  name: string;
  netns: string;
  /** The node's cgroup name (cpu/<name>, cpuacct/<name>, memory/<name>). */
  cgroupName: string;
  /** cgroup.procs files the daemon joins. */
  cgroupDirs: readonly string[];
  /** Where its RUN containers are counted (cpuacct/<node>/compile). */
  compileCpuacctDir: string;
  buildkitVersion: string;
}

/** buildkitd's debug address inside each node's namespace (fleet.yaml buildkit_debug: the node sees it there). */
export const BOX_DEBUG_ADDRESS = '127.0.0.1:6060';

/**
 * Whether a BuildKit release keeps the cache-key debug database: `--save-cache-debug` and `/debug/cache/all` came in
 * v0.24.0 (moby/buildkit#6061); older buildkitd refuses the flag ("flag provided but not defined").
 */
export function hasCacheDebug(buildkitVersion: string): boolean {
  const [major = 0, minor = 0] = buildkitVersion.replace(/^v/, '').split('.').map(Number);
  return major > 0 || minor >= 24;
}

export interface RealBuilder {
  name: string;
  socket: string;
  buildkitVersion: string;
  daemon: () => DaemonProcess;
  /**
   * While a RUN step runs: SIGKILL the daemon and its RUN containers (the builder vanishes mid-target). Returns how
   * many RUN processes it killed; 0 (and nothing killed) when no RUN step was running.
   */
  kill: () => number;
  /** Starts the daemon again on the same root, as a service manager would: its history survives. */
  restart: () => Promise<void>;
  stop: () => Promise<void>;
}

function renderBuildkitdToml(options: { root: string; cgroupParent: string; registryHost: string }): string {
  return `# buildkitd.toml of a fleet-in-a-box node (test/fleet/real/builders.ts)
root = ${JSON.stringify(options.root)}
[worker.oci]
  enabled = true
  snapshotter = "overlayfs"
  gc = false
  defaultCgroupParent = ${JSON.stringify(options.cgroupParent)}
[worker.containerd]
  enabled = false
[registry.${JSON.stringify(options.registryHost)}]
  http = true
`;
}

/** Process ids whose cgroup (any controller) is under the node's cgroup: its daemon and the containers' processes. */
function findNodePids(cgroupDirs: readonly string[]): number[] {
  const pids = new Set<number>();
  for (const dir of cgroupDirs.flatMap((root) => listCgroupTree(root)))
    for (const pid of readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean))
      pids.add(Number(pid));
  return [...pids];
}

export async function startRealBuilder(options: {
  node: RealBuilderNode;
  dir: string;
  registryHost: string;
}): Promise<RealBuilder> {
  const { node } = options;
  const home = path.join(options.dir, 'buildkit', node.name);
  mkdirSync(home, { recursive: true });
  const socket = path.join(home, 'buildkitd.sock');
  const configPath = path.join(home, 'buildkitd.toml');
  writeFileSync(
    configPath,
    renderBuildkitdToml({
      root: path.join(home, 'root'),
      cgroupParent: `${node.cgroupName}/compile`,
      registryHost: options.registryHost,
    }),
  );
  const buildkitd = findToolBinary('buildkit', node.buildkitVersion, 'buildkitd');
  // A release with the cache-key debug database keeps it and serves it inside the node's namespace; an older one
  // gets no flag it would refuse (docs/cache-debug.md).
  const debugFlags = hasCacheDebug(node.buildkitVersion)
    ? ` --save-cache-debug --debugaddr ${BOX_DEBUG_ADDRESS}`
    : '';
  const join = `for d in "$@"; do echo $$ > "$d/cgroup.procs"; done; exec "$BUILDKITD" --config "$CONFIG" --addr "unix://$SOCKET"${debugFlags}`;
  const start = () =>
    startDaemon({
      name: `buildkitd ${node.buildkitVersion} (${node.name})`,
      command: 'nsenter',
      args: [`--net=/run/netns/${node.netns}`, '--', 'sh', '-c', join, 'sh', ...node.cgroupDirs],
      logPath: path.join(home, 'buildkitd.log'),
      env: { ...process.env, BUILDKITD: buildkitd, CONFIG: configPath, SOCKET: socket },
      isReady: () => Promise.resolve(existsSync(socket)),
      timeoutMs: 30_000,
    });
  let daemon = await start();
  const kill = () => {
    const running = findNodePids([node.compileCpuacctDir]);
    if (running.length === 0) return 0;
    for (const pid of findNodePids(node.cgroupDirs)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    return running.length;
  };
  const restart = async () => {
    await daemon.stop();
    unmountUnder(path.join(home, 'root'));
    rmSync(socket, { force: true });
    daemon = await start();
  };
  return {
    name: node.name,
    socket,
    buildkitVersion: node.buildkitVersion,
    daemon: () => daemon,
    kill,
    restart,
    stop: () => daemon.stop(),
  };
}

/**
 * A DOCKER_CONFIG whose docker CLI runs the pinned buildx as its plugin. With builders whose clock is skewed
 * (`skews`: builder → whole seconds), the plugin is skewed-buildx.ts around that buildx. `buildxLink` is the link to
 * the pinned binary (useBuildx swaps it).
 */
export function createDockerConfig(
  dir: string,
  buildxVersion: string,
  skews: Readonly<Record<string, number>> = {},
): { dockerConfig: string; buildxLink: string } {
  const config = path.join(dir, 'docker-config');
  const plugin = path.join(config, 'cli-plugins', 'docker-buildx');
  mkdirSync(path.dirname(plugin), { recursive: true });
  const skewed = Object.values(skews).some((seconds) => seconds !== 0);
  const buildxLink = skewed ? path.join(config, 'pinned-buildx') : plugin;
  symlinkSync(findToolBinary('buildx', buildxVersion, 'buildx'), buildxLink);
  if (skewed) {
    const argv = bundleFleetScript(
      path.join(repoRoot, 'test/fleet/real/skewed-buildx.ts'),
      path.join(config, 'skewed-buildx.mjs'),
    );
    const command = [process.execPath, ...argv, buildxLink, JSON.stringify(skews)].map(shellQuote).join(' ');
    writeFileSync(
      plugin,
      `#!/bin/sh
# buildx with skewed builder clocks (test/fleet/real/skewed-buildx.ts)
exec ${command} "$@"
`,
    );
    chmodSync(plugin, 0o755);
  }
  writeFileSync(path.join(config, 'config.json'), '{}\n');
  return { dockerConfig: config, buildxLink };
}

/** `docker buildx create --driver remote` for each node, named after it (its node `<name>0`). */
export function createBuildxBuilders(options: {
  env: Record<string, string>;
  builders: readonly Pick<RealBuilder, 'name' | 'socket'>[];
}): void {
  for (const builder of options.builders)
    execFileSync(
      'docker',
      [
        'buildx',
        'create',
        '--name',
        builder.name,
        '--node',
        `${builder.name}0`,
        '--driver',
        'remote',
        `unix://${builder.socket}`,
      ],
      { env: { ...process.env, ...options.env }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
}

/** Unmounts what a killed buildkitd left mounted under `dir` (overlay snapshots), deepest first. */
export function unmountUnder(dir: string): void {
  const mounts = readFileSync('/proc/self/mounts', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[1] ?? '')
    .map((field) => field.replace(/\\040/g, ' '))
    .filter((mountPoint) => mountPoint.startsWith(`${dir}/`))
    .sort((a, b) => b.length - a.length);
  for (const mountPoint of mounts) {
    try {
      execFileSync('umount', ['-l', mountPoint], { stdio: 'ignore' });
    } catch {
      // already gone
    }
  }
}
