import type { Sample } from '../collect/types.js';
import type { NodeSummary, TargetSummary } from './data-file.js';
import { clipInterval, totalLengthMs, type Interval } from './intervals.js';
import { round } from './build-targets.js';

// Per-node utilisation over the makespan: busy = union of its targets' records; idle = the rest.
// CPU and memory figures come from samples.jsonl within the same window.

export interface NodesOptions {
  lanes: readonly { node: string; builder: string }[];
  targets: readonly TargetSummary[];
  samples: readonly Sample[];
  window: Interval | undefined;
}

export function buildNodes({ lanes, targets, samples, window }: NodesOptions): NodeSummary[] {
  return lanes.map(({ node, builder }) => {
    const mine = targets.filter((t) => t.node === node);
    const spans = mine.flatMap((t): Interval[] => {
      const clipped = t.startMs !== null && window ? clipInterval([t.startMs, t.endMs ?? window[1]], window) : undefined;
      return clipped ? [clipped] : [];
    });
    const makespanMs = window ? window[1] - window[0] : 0;
    const busyMs = totalLengthMs(spans);
    return {
      node,
      builder,
      targets: mine.map((t) => t.target),
      busySeconds: round(busyMs / 1000),
      idleSeconds: round(Math.max(0, makespanMs - busyMs) / 1000),
      utilisationPct: makespanMs > 0 ? round((100 * busyMs) / makespanMs, 1) : null,
      ...sampleFigures(samples.filter((s) => s.node === node && (!window || (s.tsMs >= window[0] && s.tsMs <= window[1])))),
    };
  });
}

function sampleFigures(samples: readonly Sample[]): Pick<NodeSummary, 'cpuMeanPct' | 'cpuPeakPct' | 'memPeakPct' | 'samples' | 'sampleGaps'> {
  const cpu: number[] = [];
  const mem: number[] = [];
  for (const sample of samples) {
    if (!sample.ok) continue;
    if (sample.cpuBusyPct !== null) cpu.push(sample.cpuBusyPct);
    if (sample.memUsedPct !== null) mem.push(sample.memUsedPct);
  }
  return {
    cpuMeanPct: cpu.length ? round(cpu.reduce((a, b) => a + b, 0) / cpu.length, 1) : null,
    cpuPeakPct: cpu.length ? round(Math.max(...cpu), 1) : null,
    memPeakPct: mem.length ? round(Math.max(...mem), 1) : null,
    samples: samples.length,
    sampleGaps: samples.filter((s) => !s.ok).length,
  };
}
