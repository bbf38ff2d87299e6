import { readFileSync } from 'node:fs';
import { fitSlopeMiBPerSecond, type RssPoint } from './sample-rss.js';
import type { SoakSettings } from './soak-settings.js';

// The soak's figures and which goals they miss. Pure: everything arrives measured.

export interface ProcessFigures {
  name: string;
  /** Largest VmHWM read from /proc, and the kernel's ru_maxrss at exit (GNU time) when known. */
  peakMiB: number;
  /** RSS at the start and end of the fit window (the second half of the build phase). */
  windowStartMiB: number;
  windowEndMiB: number;
  growthMiBPerSimHour: number;
  growthMiBPerWallHour: number;
  points: number;
}

export function buildProcessFigures(options: {
  name: string;
  points: readonly RssPoint[];
  fromMs: number;
  toMs: number;
  sampleIntervalMs: number;
  maxRssMiB: number | undefined;
  /** For a sum over processes: the peak is the largest simultaneous sum of VmRSS, not the sum of VmHWMs. */
  isSum?: boolean;
}): ProcessFigures {
  const window = options.points.filter((p) => p.atMs >= options.fromMs && p.atMs <= options.toMs);
  const slope = fitSlopeMiBPerSecond(window);
  const peakSeen = Math.max(
    0,
    ...options.points.map((p) => (options.isSum ? p.rssMiB : Math.max(p.hwmMiB, p.rssMiB))),
  );
  return {
    name: options.name,
    peakMiB: Math.max(peakSeen, options.maxRssMiB ?? 0),
    windowStartMiB: window[0]?.rssMiB ?? Number.NaN,
    windowEndMiB: window.at(-1)?.rssMiB ?? Number.NaN,
    // A simulated second is one sample interval: a simulated hour is 3600 intervals of wall time.
    growthMiBPerSimHour: slope * 3600 * (options.sampleIntervalMs / 1000),
    growthMiBPerWallHour: slope * 3600,
    points: window.length,
  };
}

export function checkProcessGoals(figures: ProcessFigures, settings: SoakSettings): string[] {
  const misses: string[] = [];
  if (figures.peakMiB >= settings.peakRssLimitMiB)
    misses.push(
      `${figures.name}: peak RSS ${figures.peakMiB.toFixed(1)} MiB ≥ ${settings.peakRssLimitMiB} MiB`,
    );
  if (figures.growthMiBPerSimHour > settings.growthLimitMiBPerHour)
    misses.push(
      `${figures.name}: RSS grows ${figures.growthMiBPerSimHour.toFixed(2)} MiB per simulated hour > ${settings.growthLimitMiBPerHour}`,
    );
  if (figures.points < 10)
    misses.push(`${figures.name}: only ${figures.points} RSS points in the fit window`);
  return misses;
}

/** Samples per node in samples.jsonl: all lines, and the ok ones (a failed scrape is a recorded gap). */
export function countSamples(file: string): Record<string, { lines: number; ok: number }> {
  const counts: Record<string, { lines: number; ok: number }> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const sample = JSON.parse(line) as { node: string; ok: boolean };
    const entry = (counts[sample.node] ??= { lines: 0, ok: 0 });
    entry.lines += 1;
    if (sample.ok) entry.ok += 1;
  }
  return counts;
}

export function formatProcess(f: ProcessFigures): string {
  return `${f.name.padEnd(12)} peak ${f.peakMiB.toFixed(1)} MiB; second half of the build phase ${f.windowStartMiB.toFixed(1)} → ${f.windowEndMiB.toFixed(1)} MiB, fit ${f.growthMiBPerSimHour.toFixed(2)} MiB per simulated hour (${f.growthMiBPerWallHour.toFixed(1)} MiB per wall hour, ${f.points} points)`;
}
