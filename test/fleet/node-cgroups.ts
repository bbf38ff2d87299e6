// One cgroup per box node (cgroup v1: cpu, cpuacct, memory), named like the node's namespace. The node's buildkitd
// runs in the node's cgroup, so cpuacct counts all the CPU it spends and memory what it holds. Its RUN containers
// go under <node>/compile (real/builders.ts), whose CFS quota makes the node's `speed` real and whose cpuacct counts
// them apart. The quota binds only that work: the daemon's HTTP keeps its timing whatever the compile does, as a
// real node's network stack would. A helper turns the node's counters into its own /proc (node-proc.ts).
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { registerResource, removeCgroupSync } from '../helpers/daemons/index.js';
import { fleetPrefix, parseOwnerPid, toNetnsName } from './fleet-names.js';
import { isAlive } from './network.js';

const cgroupRoot = '/sys/fs/cgroup';
const cgroupControllers = ['cpu', 'cpuacct', 'memory'] as const;
type CgroupController = (typeof cgroupControllers)[number];
/** A short CFS period keeps a throttled compile's progress smooth (the kernel default is 100 ms). */
const cfsPeriodUs = 20_000;

export interface NodeCgroup {
  name: string;
  dirs: Record<CgroupController, string>;
  /**
   * cpu/<node>/compile (the quota, for real BuildKit's RUN containers, whose cgroup parent is <node>/compile) and
   * cpuacct/<node>/compile (their CPU time).
   */
  workDirs: { compileCpu: string; compileCpuacct: string };
  quotaCores: number;
  memoryLimitBytes: number;
  remove: () => void;
}

/** The controllers this host lacks as cgroup v1 hierarchies (empty when the box can run). */
export function findMissingControllers(root = cgroupRoot): string[] {
  return cgroupControllers.filter((name) => !existsSync(path.join(root, name, 'cgroup.procs')));
}

export interface CreateNodeCgroupOptions {
  runId: string;
  nodeName: string;
  /** CPU cores the node may use (cfs_quota_us ÷ cfs_period_us). */
  quotaCores: number;
  memoryLimitBytes: number;
}

export function createNodeCgroup(options: CreateNodeCgroupOptions): NodeCgroup {
  const name = toNetnsName(options.runId, options.nodeName);
  const dirs = Object.fromEntries(
    cgroupControllers.map((controller) => [controller, path.join(cgroupRoot, controller, name)]),
  ) as Record<CgroupController, string>;
  const workDirs = {
    compileCpu: path.join(dirs.cpu, 'compile'),
    compileCpuacct: path.join(dirs.cpuacct, 'compile'),
  };
  const created = [...Object.values(dirs), ...Object.values(workDirs)];
  const unregister: (() => void)[] = [];
  for (const dir of created) {
    mkdirSync(dir);
    unregister.push(registerResource({ kind: 'cgroup', path: dir }));
  }
  // The kernel's smallest quota is 1 ms: a node below 0.05 cores (a 24-node box) gets a longer period instead.
  const periodUs = Math.max(cfsPeriodUs, Math.ceil(1000 / options.quotaCores));
  writeFileSync(path.join(workDirs.compileCpu, 'cpu.cfs_period_us'), String(periodUs));
  writeFileSync(
    path.join(workDirs.compileCpu, 'cpu.cfs_quota_us'),
    String(Math.max(1000, Math.round(options.quotaCores * periodUs))),
  );
  writeFileSync(path.join(dirs.memory, 'memory.limit_in_bytes'), String(options.memoryLimitBytes));
  return {
    name,
    dirs,
    workDirs,
    quotaCores: options.quotaCores,
    memoryLimitBytes: options.memoryLimitBytes,
    remove: () => {
      removeCgroupTrees(name);
      for (const dir of created.reverse()) removeCgroupSync(dir);
      for (const forget of unregister) forget();
    },
  };
}

/** Subdirectories of `dir`, deepest first (runc's container cgroups under <node>/compile/buildkit/<id>). */
export function listCgroupTree(dir: string): string[] {
  let entries: string[] = [];
  try {
    entries = readdirSync(dir).filter((entry) => statSync(path.join(dir, entry)).isDirectory());
  } catch {
    return [];
  }
  return [...entries.flatMap((entry) => listCgroupTree(path.join(dir, entry))), dir];
}

/**
 * Removes the node's cgroup in every mounted hierarchy with everything under it: real BuildKit's runc makes
 * <node>/compile/buildkit/<id> in each controller (pids, devices, freezer, …), not only the three the box creates.
 */
function removeCgroupTrees(name: string, root = cgroupRoot): void {
  let controllers: string[] = [];
  try {
    controllers = readdirSync(root);
  } catch {
    return;
  }
  for (const controller of controllers)
    for (const dir of listCgroupTree(path.join(root, controller, name))) removeCgroupSync(dir);
}

/** Total CPU time the cgroup's tasks used, in ns (cpuacct.usage). */
export function readCpuUsageNs(cpuacctDir: string): number {
  return Number(readFileSync(path.join(cpuacctDir, 'cpuacct.usage'), 'utf8'));
}

/** Removes the cgroups of fleet runs whose owner is gone; returns what it removed. */
export function cleanupStaleCgroups(root = cgroupRoot): string[] {
  const removed: string[] = [];
  let controllers: string[] = [];
  try {
    controllers = readdirSync(root);
  } catch {
    return removed;
  }
  for (const controller of controllers) {
    const dir = path.join(root, controller);
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter((name) => name.startsWith(fleetPrefix));
    } catch {
      continue;
    }
    for (const name of names) {
      const owner = parseOwnerPid(name);
      if (owner === undefined || isAlive(owner)) continue;
      for (const sub of listCgroupTree(path.join(dir, name))) removeCgroupSync(sub);
      removed.push(`cgroup ${controller}/${name}`);
    }
  }
  return removed;
}
