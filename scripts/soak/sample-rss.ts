import { readFileSync } from 'node:fs';

// VmRSS and VmHWM of a process from /proc/<pid>/status, once a second, until stopped or the process is gone.

export interface RssPoint {
  atMs: number;
  rssMiB: number;
  hwmMiB: number;
}

export interface RssSampler {
  points: RssPoint[];
  stop: () => void;
}

function readStatusKb(status: string, key: string): number | undefined {
  const match = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) : undefined;
}

export function readRss(pid: number, atMs = Date.now()): RssPoint | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined; // exited
  }
  const rss = readStatusKb(status, 'VmRSS');
  const hwm = readStatusKb(status, 'VmHWM');
  if (rss === undefined || hwm === undefined) return undefined; // a zombie has no memory lines
  return { atMs, rssMiB: rss / 1024, hwmMiB: hwm / 1024 };
}

export function sampleRss(pid: number, intervalMs = 1000): RssSampler {
  const points: RssPoint[] = [];
  const take = () => {
    const point = readRss(pid);
    if (point) points.push(point);
  };
  take();
  const timer = setInterval(take, intervalMs);
  return { points, stop: () => clearInterval(timer) };
}

/** Least-squares slope of rss over time, MiB per wall second. */
export function fitSlopeMiBPerSecond(points: readonly RssPoint[]): number {
  if (points.length < 2) return 0;
  const xs = points.map((p) => p.atMs / 1000);
  const ys = points.map((p) => p.rssMiB);
  const meanX = xs.reduce((a, b) => a + b, 0) / xs.length;
  const meanY = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  xs.forEach((x, i) => {
    num += (x - meanX) * ((ys[i] ?? 0) - meanY);
    den += (x - meanX) ** 2;
  });
  return den === 0 ? 0 : num / den;
}
