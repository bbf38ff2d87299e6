// Host bridge + one network namespace per node, joined by a veth pair whose node-side egress is rate limited
// with tc tbf. Everything is registered for cleanup; `cleanupStaleFleets` removes what dead runs left behind.
import { execFileSync } from 'node:child_process';
import { registerResource, runCommand } from '../helpers/daemons/index.js';
import { parseOwnerPid, toBridgeName, toNetnsName, toTbfRateBits, toVethName } from './fleet-names.js';

export interface FleetBridge {
  name: string;
  /** e.g. `10.213.47` */
  subnet: string;
  address: string;
  remove: () => Promise<void>;
}

export interface FleetNodeNetwork {
  netns: string;
  address: string;
  rateBits: number;
  remove: () => Promise<void>;
}

const ip = (args: string[], netns?: string) => runCommand('ip', args, netns);

/** Whether a process with this pid exists (EPERM: it does, owned by someone else). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A /24 in 10.213.0.0/16 no interface on this host uses yet. */
async function findFreeSubnet(): Promise<string> {
  const used = await ip(['-4', '-o', 'addr', 'show']);
  for (let attempt = 0; attempt < 300; attempt++) {
    const third = 1 + ((process.pid + attempt * 37 + Math.floor(Math.random() * 250)) % 250);
    const subnet = `10.213.${third}`;
    if (!used.includes(` ${subnet}.`)) return subnet;
  }
  throw new Error(
    'no free 10.213.X.0/24 subnet on this host; remove stale rpf-* links with `npm run fleet:clean`',
  );
}

export async function createBridge(runId: string): Promise<FleetBridge> {
  const name = toBridgeName(runId);
  const subnet = await findFreeSubnet();
  await ip(['link', 'add', name, 'type', 'bridge']);
  const unregister = registerResource({ kind: 'link', name });
  await ip(['addr', 'add', `${subnet}.1/24`, 'dev', name]);
  await ip(['link', 'set', name, 'up']);
  return {
    name,
    subnet,
    address: `${subnet}.1`,
    remove: async () => {
      await ip(['link', 'delete', name]).catch(() => undefined);
      unregister();
    },
  };
}

export interface CreateNodeNetworkOptions {
  runId: string;
  nodeName: string;
  index: number;
  bridge: FleetBridge;
  /** Upload throughput in MB/s: the node-side egress rate. */
  linkMbps: number;
}

export async function createNodeNetwork(options: CreateNodeNetworkOptions): Promise<FleetNodeNetwork> {
  const { runId, nodeName, index, bridge } = options;
  const netns = toNetnsName(runId, nodeName);
  const hostEnd = toVethName(runId, index, 'host');
  const nodeEnd = toVethName(runId, index, 'node');
  const address = `${bridge.subnet}.${11 + index}`;
  const rateBits = toTbfRateBits(options.linkMbps);
  await ip(['netns', 'add', netns]);
  const unregister = registerResource({ kind: 'netns', name: netns });
  await ip(['link', 'add', hostEnd, 'type', 'veth', 'peer', 'name', nodeEnd]);
  await ip(['link', 'set', nodeEnd, 'netns', netns]);
  await ip(['link', 'set', hostEnd, 'master', bridge.name, 'up']);
  await ip(['link', 'set', nodeEnd, 'name', 'eth0'], netns);
  await ip(['addr', 'add', `${address}/24`, 'dev', 'eth0'], netns);
  await ip(['link', 'set', 'eth0', 'up'], netns);
  await ip(['link', 'set', 'lo', 'up'], netns);
  await shapeEgress({ netns, device: 'eth0', rateBits });
  return {
    netns,
    address,
    rateBits,
    remove: async () => {
      await ip(['netns', 'delete', netns]).catch(() => undefined);
      unregister();
    },
  };
}

/** tbf on the device's egress: `rateBits` bit/s, a burst of ~20 ms of traffic (at least 2 full frames). */
async function shapeEgress(options: { netns: string; device: string; rateBits: number }): Promise<void> {
  const burstBytes = Math.max(3200, Math.round(options.rateBits / 8 / 50));
  await runCommand(
    'tc',
    [
      'qdisc',
      'replace',
      'dev',
      options.device,
      'root',
      'tbf',
      'rate',
      `${options.rateBits}bit`,
      'burst',
      String(burstBytes),
      'latency',
      '400ms',
    ],
    options.netns,
  );
}

/** Removes namespaces and bridges of fleet runs whose owning process is gone. Returns what it removed. */
export function cleanupStaleFleets(): string[] {
  const removed: string[] = [];
  const netnsList = execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' });
  for (const name of netnsList.split('\n').map((line) => line.split(' ')[0] ?? '')) {
    const owner = parseOwnerPid(name);
    if (owner === undefined || isAlive(owner)) continue;
    execFileSync('ip', ['netns', 'delete', name], { stdio: 'ignore' });
    removed.push(`netns ${name}`);
  }
  const links = execFileSync('ip', ['-o', 'link', 'show'], { encoding: 'utf8' });
  for (const match of links.matchAll(/^\d+: (rpf-[^:@\s]+)[:@]/gm)) {
    const name = match[1] ?? '';
    const owner = parseOwnerPid(name);
    if (owner === undefined || isAlive(owner)) continue;
    execFileSync('ip', ['link', 'delete', name], { stdio: 'ignore' });
    removed.push(`link ${name}`);
  }
  return removed;
}
