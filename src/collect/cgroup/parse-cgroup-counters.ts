// One step container's counter files (as step-usage.jsonl keeps them) → its figures. Pure. cgroup v1 and v2 name
// the same things differently (docs/step-usage.md has the table); a file that is absent or does not parse gives
// null for its figure, never 0.

export interface CgroupFigures {
  cpuSeconds: number | null;
  /** v1 memory.max_usage_in_bytes, v2 memory.peak (kernel ≥ 5.19); else null (memory.current is not a peak). */
  memoryPeakBytes: number | null;
  /** v2 memory.current, v1 none: the sampler's maximum stands in for a peak the kernel does not keep. */
  memoryCurrentBytes: number | null;
  ioReadBytes: number | null;
  ioWriteBytes: number | null;
  /** v2 pids.peak (kernel ≥ 6.1) when present; else pids.current at this poll. */
  pidsPeak: number | null;
  /** v1 memory.oom_control `oom_kill` (kernel ≥ 4.13); v2 memory.events `oom_kill`. */
  oomEvents: number | null;
}

const toCount = (text: string | undefined): number | null => {
  const trimmed = text?.trim();
  return trimmed !== undefined && /^\d+$/.test(trimmed) ? Number(trimmed) : null;
};

/** `key value` lines (cpu.stat, memory.events, memory.oom_control) → the value of `key`. */
function findKeyed(text: string | undefined, key: string): number | null {
  for (const line of text?.split('\n') ?? []) {
    const [name, value, extra] = line.trim().split(/\s+/);
    if (name === key && extra === undefined) return toCount(value);
  }
  return null;
}

/** v1 blkio.throttle.io_service_bytes: `MAJ:MIN Read N` per device, then `Total N`; sums one operation. */
function sumV1Io(text: string | undefined, operation: 'Read' | 'Write'): number | null {
  if (text === undefined) return null;
  let sum = 0;
  for (const line of text.split('\n')) {
    const [device, op, value] = line.trim().split(/\s+/);
    if (device === undefined || !/^\d+:\d+$/.test(device) || op !== operation) continue;
    const bytes = toCount(value);
    if (bytes === null) return null;
    sum += bytes;
  }
  return sum;
}

/** v2 io.stat: `MAJ:MIN rbytes=N wbytes=N rios=N …` per device; sums one key. */
function sumV2Io(text: string | undefined, key: 'rbytes' | 'wbytes'): number | null {
  if (text === undefined) return null;
  let sum = 0;
  for (const line of text.split('\n')) {
    const [device, ...pairs] = line.trim().split(/\s+/);
    if (device === undefined || !/^\d+:\d+$/.test(device)) continue;
    const pair = pairs.find((entry) => entry.startsWith(`${key}=`));
    const bytes = toCount(pair?.slice(key.length + 1));
    if (bytes === null) return null;
    sum += bytes;
  }
  return sum;
}

export function parseCgroupCounters(
  cgroup: 'v1' | 'v2',
  files: Readonly<Record<string, string>>,
): CgroupFigures {
  if (cgroup === 'v1') {
    const usageNs = toCount(files['cpuacct.usage']);
    return {
      cpuSeconds: usageNs === null ? null : usageNs / 1e9,
      memoryPeakBytes: toCount(files['memory.max_usage_in_bytes']),
      memoryCurrentBytes: null,
      ioReadBytes: sumV1Io(files['blkio.throttle.io_service_bytes'], 'Read'),
      ioWriteBytes: sumV1Io(files['blkio.throttle.io_service_bytes'], 'Write'),
      pidsPeak: toCount(files['pids.current']),
      oomEvents: findKeyed(files['memory.oom_control'], 'oom_kill'),
    };
  }
  const usageUsec = findKeyed(files['cpu.stat'], 'usage_usec');
  return {
    cpuSeconds: usageUsec === null ? null : usageUsec / 1e6,
    memoryPeakBytes: toCount(files['memory.peak']),
    memoryCurrentBytes: toCount(files['memory.current']),
    ioReadBytes: sumV2Io(files['io.stat'], 'rbytes'),
    ioWriteBytes: sumV2Io(files['io.stat'], 'wbytes'),
    pidsPeak: toCount(files['pids.peak']) ?? toCount(files['pids.current']),
    oomEvents: findKeyed(files['memory.events'], 'oom_kill'),
  };
}
