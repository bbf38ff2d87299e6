import type { ReportWarning, Sample } from '../artifacts/index.js';

// A node's missing samples, said as stretches: from the first failed scrape to the next good one, with the error the
// scrapes gave. The series draws them as gaps (never as zeros); this says when, for how long, and why.

export interface SampleGap {
  node: string;
  fromMs: number;
  /** The next good sample, or the last failed one when the run ended without one. */
  toMs: number;
  scrapes: number;
  /** Distinct errors, in order of first appearance. */
  errors: string[];
}

export function findSampleGaps(samples: readonly Sample[]): SampleGap[] {
  const byNode = new Map<string, Sample[]>();
  // Push, never spread: a 6-hour, 24-node, 1 Hz run has 21,600 samples a node (spreading copied each list per sample).
  for (const sample of samples) {
    const list = byNode.get(sample.node);
    if (list) list.push(sample);
    else byNode.set(sample.node, [sample]);
  }
  const gaps: SampleGap[] = [];
  for (const [node, list] of byNode) {
    let open: SampleGap | undefined;
    for (const sample of list.sort((a, b) => a.tsMs - b.tsMs)) {
      if (!sample.ok) {
        open ??= { node, fromMs: sample.tsMs, toMs: sample.tsMs, scrapes: 0, errors: [] };
        open.toMs = sample.tsMs;
        open.scrapes += 1;
        if (!open.errors.includes(sample.error)) open.errors.push(sample.error);
      } else if (open) {
        gaps.push({ ...open, toMs: sample.tsMs });
        open = undefined;
      }
    }
    if (open) gaps.push(open);
  }
  return gaps.sort((a, b) => a.fromMs - b.fromMs || a.node.localeCompare(b.node));
}

const clock = (ms: number) => new Date(ms).toISOString().slice(11, 19);

export function buildSampleGapWarnings(samples: readonly Sample[]): ReportWarning[] {
  return findSampleGaps(samples).map((gap) => ({
    level: 'note',
    stream: 'samples.jsonl',
    message: `${gap.node}: no samples ${clock(gap.fromMs)}–${clock(gap.toMs)} UTC (${((gap.toMs - gap.fromMs) / 1000).toFixed(1)} s, ${gap.scrapes} failed scrape${gap.scrapes === 1 ? '' : 's'}): ${gap.errors.slice(0, 2).join('; ')}${gap.errors.length > 2 ? ` (+${gap.errors.length - 2} more)` : ''}`,
  }));
}
