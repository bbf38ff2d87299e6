import type { ReportWarning, SampleTable } from '../artifacts/index.js';

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

export function findSampleGaps(samples: SampleTable): SampleGap[] {
  const gaps: SampleGap[] = [];
  for (const [node, columns] of samples.nodes) {
    let open: SampleGap | undefined;
    for (let i = 0; i < columns.length; i++) {
      const tsMs = columns.tsMs[i]!;
      const errorId = columns.errorId[i]!;
      if (errorId >= 0) {
        open ??= { node, fromMs: tsMs, toMs: tsMs, scrapes: 0, errors: [] };
        open.toMs = tsMs;
        open.scrapes += 1;
        const error = samples.errors[errorId]!;
        if (!open.errors.includes(error)) open.errors.push(error);
      } else if (open) {
        gaps.push({ ...open, toMs: tsMs });
        open = undefined;
      }
    }
    if (open) gaps.push(open);
  }
  return gaps.sort((a, b) => a.fromMs - b.fromMs || a.node.localeCompare(b.node));
}

const clock = (ms: number) => new Date(ms).toISOString().slice(11, 19);

export function buildSampleGapWarnings(samples: SampleTable): ReportWarning[] {
  return findSampleGaps(samples).map((gap) => ({
    level: 'note',
    stream: 'samples.jsonl',
    message: `${gap.node}: no samples ${clock(gap.fromMs)}–${clock(gap.toMs)} UTC (${((gap.toMs - gap.fromMs) / 1000).toFixed(1)} s, ${gap.scrapes} failed scrape${gap.scrapes === 1 ? '' : 's'}): ${gap.errors.slice(0, 2).join('; ')}${gap.errors.length > 2 ? ` (+${gap.errors.length - 2} more)` : ''}`,
  }));
}
