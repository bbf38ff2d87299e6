// A box node's own /proc/stat and /proc/meminfo, made from its cgroup counters, read as node_exporter reads them:
// the cpu line's deltas give the busy share of the node's quota, meminfo's used memory is MemTotal − MemFree.
// Expected figures are worked out by hand in the comments; the /proc parsers here are the test's own.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  advanceNodeProc,
  createNodeProcState,
  parseCpuacctStat,
  parseMemoryStat,
  renderProcMeminfo,
  renderProcStat,
  type CgroupCounters,
  type NodeProcState,
} from '../../fleet/node-proc.js';

const BOOT_MS = 1_773_480_000_000;
const S = 1000;
const GIB = 1024 ** 3;
const QUOTA_CORES = 4;

function counters(overrides: Partial<CgroupCounters> = {}): CgroupCounters {
  return {
    usageNs: 0,
    userTicks: 0,
    systemTicks: 0,
    memoryUsageBytes: 0,
    memoryStat: {},
    ...overrides,
  };
}

/**
 * First reading 60 s after boot: 120 s of CPU used so far (30 s of the 4-core quota), split 9000/3000 ticks.
 * The node's one virtual CPU then reads user 30 s, idle 60 − 30 = 30 s.
 */
function nodeAfterOneMinute(): NodeProcState {
  const state = createNodeProcState({ bootMs: BOOT_MS, quotaCores: QUOTA_CORES, memoryLimitBytes: 8 * GIB });
  const first = counters({ usageNs: 120e9, userTicks: 9000, systemTicks: 3000 });
  return advanceNodeProc(state, first, BOOT_MS + 60 * S);
}

/** The next reading, `seconds` later, after the cgroup used `cpuSeconds` of CPU, 3/4 of it user. */
function advanceBy(state: NodeProcState, seconds: number, cpuSeconds: number): NodeProcState {
  const last = state.last!;
  const next = counters({
    usageNs: last.counters.usageNs + cpuSeconds * 1e9,
    userTicks: last.counters.userTicks + cpuSeconds * 100 * 0.75,
    systemTicks: last.counters.systemTicks + cpuSeconds * 100 * 0.25,
  });
  return advanceNodeProc(state, next, last.atMs + seconds * S);
}

interface CpuLine {
  fields: number[];
  busy: number;
  total: number;
}

/** The aggregate `cpu` line: user nice system idle iowait irq softirq steal guest guest_nice, in ticks. */
function parseCpuLine(procStat: string): CpuLine {
  const line = procStat.split('\n').find((l) => l.startsWith('cpu '))!;
  const fields = line.trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const busy = user + nice + system + irq + softirq + steal;
  return { fields, busy, total: busy + idle + iowait };
}

/** Busy share of the ticks between two readings of /proc/stat, in percent, as node_exporter users compute it. */
function busyPct(before: string, after: string): number {
  const [a, b] = [parseCpuLine(before), parseCpuLine(after)];
  return (100 * (b.busy - a.busy)) / (b.total - a.total);
}

/** Every field of every cpu line at least what it was in the line before. */
function expectNeverBackwards(cpuLines: number[][]): void {
  for (let i = 1; i < cpuLines.length; i++)
    cpuLines[i]!.forEach((value, f) =>
      expect(value, `reading ${i}, field ${f}`).toBeGreaterThanOrEqual(cpuLines[i - 1]![f]!),
    );
}

/** `Key:   N kB` lines → kB by key. */
function parseMeminfoKb(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.trimEnd().split('\n')) {
    const match = /^(\S+):\s+(\d+) kB$/.exec(line);
    if (!match) throw new Error(`not a meminfo line: ${line}`);
    out[match[1]!] = Number(match[2]);
  }
  return out;
}

describe('renderProcStat', () => {
  it('a node using its whole quota for 10 s reads 100 % busy, an idle one 0 %', () => {
    const start = nodeAfterOneMinute();
    const before = renderProcStat(start);
    expect(before.split('\n')[0]).toBe('cpu  3000 0 0 3000 0 0 0 0 0 0');

    // 4 cores × 10 s = 40 s of CPU: 10 s of the virtual CPU, 7.5 s user and 2.5 s system; idle stays 30 s.
    const full = renderProcStat(advanceBy(start, 10, QUOTA_CORES * 10));
    expect(full.split('\n')[0]).toBe('cpu  3750 0 250 3000 0 0 0 0 0 0');
    expect(busyPct(before, full)).toBe(100);

    // No CPU used: the 10 s all go to idle, 30 → 40 s.
    const idle = renderProcStat(advanceBy(start, 10, 0));
    expect(idle.split('\n')[0]).toBe('cpu  3000 0 0 4000 0 0 0 0 0 0');
    expect(busyPct(before, idle)).toBe(0);
  });

  it('the cpu line read by a parser of its own gives the busy share of the quota', () => {
    const start = nodeAfterOneMinute();
    // Half the quota for 10 s: 20 s of CPU, 5 s busy (3.75 user, 1.25 system) and 5 s idle on the virtual CPU.
    const after = renderProcStat(advanceBy(start, 10, QUOTA_CORES * 5));
    const cpu = parseCpuLine(after);
    expect(cpu.fields).toEqual([3375, 0, 125, 3500, 0, 0, 0, 0, 0, 0]);
    expect(cpu.busy).toBe(3500);
    expect(cpu.total).toBe(7000);
    expect(busyPct(renderProcStat(start), after)).toBe(50);
    // One CPU: cpu0 repeats the aggregate; btime is the boot time in seconds.
    const lines = after.split('\n');
    expect(lines[1]).toBe(`cpu0 ${lines[0]!.slice('cpu  '.length)}`);
    expect(lines).toContain('btime 1773480000');
  });

  it('counters never go backwards when the usage samples jitter', () => {
    // Readings 100 ms apart (the writer's interval); usage and the tick split dip and recover.
    const readings: [usageNs: number, userTicks: number, systemTicks: number][] = [
      [120.0e9, 9000, 3000],
      [120.4e9, 9030, 3010],
      [120.3e9, 9028, 3012],
      [121.2e9, 9100, 3009],
      [121.1e9, 9105, 3030],
      [121.1e9, 9105, 3030],
      [122.0e9, 9170, 3050],
    ];
    let state = createNodeProcState({ bootMs: BOOT_MS, quotaCores: QUOTA_CORES, memoryLimitBytes: 8 * GIB });
    const cpuLines = readings.map(([usageNs, userTicks, systemTicks], i) => {
      state = advanceNodeProc(
        state,
        counters({ usageNs, userTicks, systemTicks }),
        BOOT_MS + 60 * S + i * 100,
      );
      return parseCpuLine(renderProcStat(state)).fields;
    });
    expectNeverBackwards(cpuLines);
  });

  it('counters never go backwards for any jittering sequence of readings', () => {
    const step = fc.record({
      dtMs: fc.integer({ min: 0, max: 2000 }),
      usageDeltaNs: fc.integer({ min: -2e9, max: 8e9 }),
      userDelta: fc.integer({ min: -50, max: 400 }),
      systemDelta: fc.integer({ min: -50, max: 400 }),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => {
        let state = createNodeProcState({
          bootMs: BOOT_MS,
          quotaCores: QUOTA_CORES,
          memoryLimitBytes: 8 * GIB,
        });
        let reading = counters({ usageNs: 120e9, userTicks: 9000, systemTicks: 3000 });
        let atMs = BOOT_MS + 60 * S;
        state = advanceNodeProc(state, reading, atMs);
        const cpuLines = [parseCpuLine(renderProcStat(state)).fields];
        for (const { dtMs, usageDeltaNs, userDelta, systemDelta } of steps) {
          atMs += dtMs;
          reading = counters({
            usageNs: Math.max(0, reading.usageNs + usageDeltaNs),
            userTicks: Math.max(0, reading.userTicks + userDelta),
            systemTicks: Math.max(0, reading.systemTicks + systemDelta),
          });
          state = advanceNodeProc(state, reading, atMs);
          cpuLines.push(parseCpuLine(renderProcStat(state)).fields);
        }
        expectNeverBackwards(cpuLines);
      }),
    );
  });
});

describe('renderProcMeminfo', () => {
  // memory.stat of a node with 3 GiB in use, 1 GiB of it page cache (64 MiB of that shmem), 2 GiB anonymous.
  const memoryStat = {
    total_cache: GIB,
    total_rss: 2 * GIB,
    total_shmem: 64 * 1024 ** 2,
    total_mapped_file: 128 * 1024 ** 2,
    total_active_anon: 1.5 * GIB,
    total_inactive_anon: 0.5 * GIB,
    total_active_file: 0.75 * GIB,
    total_inactive_file: 0.25 * GIB,
  };

  function meminfoOf(memoryUsageBytes: number, stat: Record<string, number> = memoryStat) {
    const state = createNodeProcState({
      bootMs: BOOT_MS,
      quotaCores: QUOTA_CORES,
      memoryLimitBytes: 8 * GIB,
    });
    const read = advanceNodeProc(state, counters({ memoryUsageBytes, memoryStat: stat }), BOOT_MS + 60 * S);
    return parseMeminfoKb(renderProcMeminfo(read));
  }

  it('MemTotal is the memory limit in kB and the used bytes are MemTotal − MemFree', () => {
    const kb = meminfoOf(3 * GIB);
    // 8 GiB = 8 × 1048576 kB; 3 GiB used = 3145728 kB, so 5 GiB = 5242880 kB free.
    expect(kb.MemTotal).toBe(8_388_608);
    expect(kb.MemFree).toBe(5_242_880);
    expect(kb.MemTotal! - kb.MemFree!).toBe(3_145_728);
    // Free plus reclaimable cache: 5242880 + 1048576 − 65536 (shmem is not reclaimable).
    expect(kb.MemAvailable).toBe(6_225_920);
    expect(kb).toMatchObject({
      Cached: 1_048_576,
      Shmem: 65_536,
      AnonPages: 2_097_152,
      Mapped: 131_072,
      'Active(anon)': 1_572_864,
      'Inactive(file)': 262_144,
      Active: 1_572_864 + 786_432,
      Inactive: 524_288 + 262_144,
    });
  });

  it('MemAvailable never exceeds MemTotal, and usage over the limit reads as full', () => {
    // Cache counted ahead of usage (the two files are read apart): 7.5 GiB free + 1 GiB cache is over the limit.
    const racing = meminfoOf(0.5 * GIB, { total_cache: GIB });
    expect(racing.MemFree).toBe(7_864_320);
    expect(racing.MemAvailable).toBe(8_388_608);
    expect(racing.MemAvailable).toBeLessThanOrEqual(racing.MemTotal!);

    const over = meminfoOf(9 * GIB, { total_cache: 0 });
    expect(over.MemFree).toBe(0);
    expect(over.MemTotal! - over.MemFree!).toBe(8_388_608);
    expect(over.MemAvailable).toBe(0);
  });
});

describe('cgroup v1 parsers', () => {
  it('parseMemoryStat reads memory.stat by key, numbers only', () => {
    const text = [
      'cache 1073741824',
      'rss 2147483648',
      'rss_huge 0',
      'shmem 67108864',
      'mapped_file 134217728',
      'pgpgin 912345',
      'hierarchical_memory_limit 8589934592',
      'total_cache 1073741824',
      'total_rss 2147483648',
      'total_shmem 67108864',
      '',
    ].join('\n');
    expect(parseMemoryStat(text)).toEqual({
      cache: 1_073_741_824,
      rss: 2_147_483_648,
      rss_huge: 0,
      shmem: 67_108_864,
      mapped_file: 134_217_728,
      pgpgin: 912_345,
      hierarchical_memory_limit: 8_589_934_592,
      total_cache: 1_073_741_824,
      total_rss: 2_147_483_648,
      total_shmem: 67_108_864,
    });
  });

  it('parseCpuacctStat reads user and system ticks, 0 for a missing one', () => {
    expect(parseCpuacctStat('user 123\nsystem 45\n')).toEqual({ userTicks: 123, systemTicks: 45 });
    expect(parseCpuacctStat('user 98765\nsystem 4321')).toEqual({ userTicks: 98_765, systemTicks: 4321 });
    expect(parseCpuacctStat('user 7\n')).toEqual({ userTicks: 7, systemTicks: 0 });
  });
});
