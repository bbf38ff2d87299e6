import type { NodeSummary, Sample, TargetSummary } from '../artifacts/index.js';
import { clipInterval, totalLengthMs, type Interval } from '../shared/intervals.js';
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
  const byNode = new Map<string, Sample[]>();
  for (const sample of samples) {
    if (window && (sample.tsMs < window[0] || sample.tsMs > window[1])) continue;
    const list = byNode.get(sample.node);
    if (list) list.push(sample);
    else byNode.set(sample.node, [sample]);
  }
  return lanes.map(({ node, builder }) => {
    const mine = targets.filter((t) => t.node === node);
    const spans = mine.flatMap((t): Interval[] => {
      const clipped =
        t.startMs !== null && window ? clipInterval([t.startMs, t.endMs ?? window[1]], window) : undefined;
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
      ...sampleFigures(byNode.get(node) ?? []),
    };
  });
}

function sampleFigures(
  samples: readonly Sample[],
): Pick<NodeSummary, 'cpuMeanPct' | 'cpuPeakPct' | 'memPeakPct' | 'samples' | 'sampleGaps'> {
  let [cpuSum, cpuCount, cpuPeak, memPeak, gaps] = [
    0,
    0,
    Number.NEGATIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    0,
  ];
  for (const sample of samples) {
    if (!sample.ok) {
      gaps += 1;
      continue;
    }
    if (sample.cpuBusyPct !== null) {
      cpuSum += sample.cpuBusyPct;
      cpuCount += 1;
      cpuPeak = Math.max(cpuPeak, sample.cpuBusyPct);
    }
    if (sample.memUsedPct !== null) memPeak = Math.max(memPeak, sample.memUsedPct);
  }
  return {
    cpuMeanPct: cpuCount ? round(cpuSum / cpuCount, 1) : null,
    cpuPeakPct: cpuCount ? round(cpuPeak, 1) : null,
    memPeakPct: Number.isFinite(memPeak) ? round(memPeak, 1) : null,
    samples: samples.length,
    sampleGaps: gaps,
  };
}
