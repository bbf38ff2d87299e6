import { existsSync, readdirSync, readFileSync } from 'node:fs';

// VmRSS and VmHWM of a process from /proc/<pid>/status, once a second, until stopped or the process is gone; also
// the sum over its descendants (serve forks its data.json regeneration process), sampled at the same instant.

export interface RssPoint {
  atMs: number;
  rssMiB: number;
  hwmMiB: number;
}

export interface RssSampler {
  points: RssPoint[];
  /** Sum over the process's descendants (empty ticks left out). */
  childPoints: RssPoint[];
  /** The process plus its descendants. */
  totalPoints: RssPoint[];
  stop: () => void;
}

function listDescendants(pid: number): number[] {
  const taskDir = `/proc/${pid}/task`;
  if (!existsSync(taskDir)) return [];
  const children: number[] = [];
  try {
    for (const tid of readdirSync(taskDir)) {
      const text = readFileSync(`${taskDir}/${tid}/children`, 'utf8').trim();
      if (text) children.push(...text.split(/\s+/).map(Number));
    }
  } catch {
    return children; // exited meanwhile
  }
  return children.flatMap((child) => [child, ...listDescendants(child)]);
}

const sumPoints = (atMs: number, points: readonly RssPoint[]): RssPoint => ({
  atMs,
  rssMiB: points.reduce((sum, p) => sum + p.rssMiB, 0),
  hwmMiB: points.reduce((sum, p) => sum + p.hwmMiB, 0),
});

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
  const childPoints: RssPoint[] = [];
  const totalPoints: RssPoint[] = [];
  const take = () => {
    const atMs = Date.now();
    const point = readRss(pid, atMs);
    if (!point) return;
    points.push(point);
    const children = listDescendants(pid).flatMap((child) => readRss(child, atMs) ?? []);
    if (children.length > 0) childPoints.push(sumPoints(atMs, children));
    totalPoints.push(sumPoints(atMs, [point, ...children]));
  };
  take();
  const timer = setInterval(take, intervalMs);
  return { points, childPoints, totalPoints, stop: () => clearInterval(timer) };
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
