// PURE: a box node's own /proc/stat, /proc/meminfo and /proc/loadavg, in the kernel's text format (what
// Prometheus node_exporter's procfs reads), from that node's cgroup counters. The node is presented as a machine
// with one CPU whose capacity is its CFS quota, as lxcfs's CPU view presents a container: a node using its whole
// quota reads 100 % busy, an idle one ~0 %, whatever the host is doing. Counters never go backwards.

/** USER_HZ: /proc/stat counts in these ticks per second. */
const userHz = 100;

export interface CgroupCounters {
  /** cpuacct.usage, ns. */
  usageNs: number;
  /** cpuacct.stat user and system, in USER_HZ ticks (only their split is used). */
  userTicks: number;
  systemTicks: number;
  /** memory.usage_in_bytes and memory.stat (total_* keys, bytes). */
  memoryUsageBytes: number;
  memoryStat: Readonly<Record<string, number>>;
}

export interface NodeProcState {
  bootMs: number;
  quotaCores: number;
  memoryLimitBytes: number;
  /** Seconds on the node's one virtual CPU, per mode. */
  user: number;
  system: number;
  idle: number;
  load: [number, number, number];
  /** The last counters and when they were read. */
  last?: { atMs: number; counters: CgroupCounters };
}

export function createNodeProcState(options: {
  bootMs: number;
  quotaCores: number;
  memoryLimitBytes: number;
}): NodeProcState {
  return { ...options, user: 0, system: 0, idle: 0, load: [0, 0, 0] };
}

/** Folds one reading of the counters into the node's CPU seconds and load averages. */
export function advanceNodeProc(state: NodeProcState, counters: CgroupCounters, atMs: number): NodeProcState {
  const previous = state.last;
  const next: NodeProcState = { ...state, load: [...state.load], last: { atMs, counters } };
  if (previous === undefined) {
    next.user = counters.usageNs / 1e9 / state.quotaCores;
    next.idle = Math.max(0, (atMs - state.bootMs) / 1000 - next.user);
    return next;
  }
  const busy = Math.max(0, counters.usageNs - previous.counters.usageNs) / 1e9 / state.quotaCores;
  const userShare = toUserShare(previous.counters, counters);
  next.user += busy * userShare;
  next.system += busy * (1 - userShare);
  const elapsed = Math.max(0, (atMs - state.bootMs) / 1000);
  next.idle = Math.max(state.idle, elapsed - next.user - next.system);
  const dtSeconds = Math.max(0, (atMs - previous.atMs) / 1000);
  const running = dtSeconds > 0 ? Math.min(1, busy / dtSeconds) : 0;
  next.load = [60, 300, 900].map((window, i) => {
    const decay = Math.exp(-dtSeconds / window);
    return state.load[i]! * decay + running * (1 - decay);
  }) as [number, number, number];
  return next;
}

function toUserShare(before: CgroupCounters, after: CgroupCounters): number {
  const user = Math.max(0, after.userTicks - before.userTicks);
  const system = Math.max(0, after.systemTicks - before.systemTicks);
  return user + system > 0 ? user / (user + system) : 1;
}

const ticks = (seconds: number) => Math.floor(seconds * userHz);

export function renderProcStat(state: NodeProcState): string {
  const cpu = `${ticks(state.user)} 0 ${ticks(state.system)} ${ticks(state.idle)} 0 0 0 0 0 0`;
  return [
    `cpu  ${cpu}`,
    `cpu0 ${cpu}`,
    'intr 0',
    'ctxt 0',
    `btime ${Math.floor(state.bootMs / 1000)}`,
    'processes 0',
    `procs_running ${Math.round(state.load[0]) + 1}`,
    'procs_blocked 0',
    'softirq 0 0 0 0 0 0 0 0 0 0 0',
    '',
  ].join('\n');
}

export function renderProcMeminfo(state: NodeProcState): string {
  const stat = state.last?.counters.memoryStat ?? {};
  const read = (key: string) => stat[`total_${key}`] ?? 0;
  const total = state.memoryLimitBytes;
  const used = Math.min(total, state.last?.counters.memoryUsageBytes ?? 0);
  const cache = read('cache');
  const free = total - used;
  const lines: [string, number][] = [
    ['MemTotal', total],
    ['MemFree', free],
    ['MemAvailable', Math.min(total, free + cache - read('shmem'))],
    ['Buffers', 0],
    ['Cached', cache],
    ['SwapCached', 0],
    ['Active', read('active_anon') + read('active_file')],
    ['Inactive', read('inactive_anon') + read('inactive_file')],
    ['Active(anon)', read('active_anon')],
    ['Inactive(anon)', read('inactive_anon')],
    ['Active(file)', read('active_file')],
    ['Inactive(file)', read('inactive_file')],
    ['Unevictable', read('unevictable')],
    ['Mlocked', 0],
    ['SwapTotal', 0],
    ['SwapFree', 0],
    ['Dirty', read('dirty')],
    ['Writeback', read('writeback')],
    ['AnonPages', read('rss')],
    ['Mapped', read('mapped_file')],
    ['Shmem', read('shmem')],
  ];
  return `${lines.map(([key, bytes]) => `${`${key}:`.padEnd(16)}${String(Math.floor(bytes / 1024)).padStart(8)} kB`).join('\n')}\n`;
}

export function renderProcLoadavg(state: NodeProcState): string {
  const [one, five, fifteen] = state.load.map((value) => value.toFixed(2));
  return `${one} ${five} ${fifteen} ${Math.round(state.load[0]) + 1}/64 1\n`;
}

/** memory.stat text → numbers by key. */
export function parseMemoryStat(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const [key, value] = line.split(' ');
    if (key && value !== undefined && /^\d+$/.test(value)) out[key] = Number(value);
  }
  return out;
}

/** cpuacct.stat (`user N\nsystem M`) → ticks. */
export function parseCpuacctStat(text: string): { userTicks: number; systemTicks: number } {
  const stat = parseMemoryStat(text);
  return { userTicks: stat.user ?? 0, systemTicks: stat.system ?? 0 };
}
