import type { NodeSamples, NodeSummary, SampleTable, TargetSummary } from '../artifacts/index.js';
import type { LinkMeasurement } from '../plan/index.js';
import { clipInterval, totalLengthMs, type Interval } from '../shared/intervals.js';
import { round } from './build-targets.js';

// Per-node utilisation over the makespan: busy = union of its targets' records; idle = the rest.
// CPU and memory figures come from samples.jsonl within the same window.

export interface NodesOptions {
  lanes: readonly { node: string; builder: string }[];
  targets: readonly TargetSummary[];
  samples: SampleTable;
  window: Interval | undefined;
  /** Each node's measured uploads (src/plan/learn-fleet.ts), and the link_mbps run.json recorded. */
  links: { measured: ReadonlyMap<string, LinkMeasurement>; configuredMbps: ReadonlyMap<string, number> };
}

export function buildNodes({ lanes, targets, samples, window, links }: NodesOptions): NodeSummary[] {
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
      ...sampleFigures(samples.nodes.get(node), window),
      measuredUploadMBps: roundThroughput(links.measured.get(node)?.effectiveMBps),
      upload: toUploadFigures(links.measured.get(node)),
      configuredLinkMbps: links.configuredMbps.get(node) ?? null,
      usage: null,
      partial: [],
    };
  });
}

/** Four significant digits: a box's kiln uploads at 0.2 MB/s, a real wired node at 100. */
function roundThroughput(mbps: number | undefined): number | null {
  return mbps === undefined ? null : Number(mbps.toPrecision(4));
}

/** The latency + rate fit, rounded: ms to 0.1, MB/s to four significant digits. */
function toUploadFigures(link: LinkMeasurement | undefined): NodeSummary['upload'] {
  if (!link) return null;
  const { fit } = link;
  return {
    requests: fit.requests,
    latencyMs: round(fit.latencyMs, 1),
    noiseMs: round(fit.noiseMs, 1),
    rateMBps: roundThroughput(fit.rateMBps),
    wireBound: fit.wireBound,
    largestLoadBytes: Math.round(fit.largestLoadBytes),
  };
}

/** The node's samples within the window (all of them without one). */
function sampleFigures(
  columns: NodeSamples | undefined,
  window: Interval | undefined,
): Pick<NodeSummary, 'cpuMeanPct' | 'cpuPeakPct' | 'memPeakPct' | 'samples' | 'sampleGaps'> {
  let [cpuSum, cpuCount, cpuPeak, memPeak, gaps, count] = [
    0,
    0,
    Number.NEGATIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    0,
    0,
  ];
  for (let i = 0; columns !== undefined && i < columns.length; i++) {
    const tsMs = columns.tsMs[i]!;
    if (window && (tsMs < window[0] || tsMs > window[1])) continue;
    count += 1;
    if (columns.errorId[i]! >= 0) {
      gaps += 1;
      continue;
    }
    const cpu = columns.cpuBusyPct[i]!;
    if (!Number.isNaN(cpu)) {
      cpuSum += cpu;
      cpuCount += 1;
      cpuPeak = Math.max(cpuPeak, cpu);
    }
    const mem = columns.memUsedPct[i]!;
    if (!Number.isNaN(mem)) memPeak = Math.max(memPeak, mem);
  }
  return {
    cpuMeanPct: cpuCount ? round(cpuSum / cpuCount, 1) : null,
    cpuPeakPct: cpuCount ? round(cpuPeak, 1) : null,
    memPeakPct: Number.isFinite(memPeak) ? round(memPeak, 1) : null,
    samples: count,
    sampleGaps: gaps,
  };
}
