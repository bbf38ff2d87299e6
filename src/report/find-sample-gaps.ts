import type { ReportWarning, SampleTable } from '../artifacts/index.js';

// A node's missing samples, said as stretches: from the first failed scrape to the next good one, with the error the
// scrapes gave. The series draws them as gaps (never as zeros); this says when, for how long, and why.

interface SampleGap {
  node: string;
  fromMs: number;
  /** The next good sample, or the last failed one when the run ended without one. */
  toMs: number;
  scrapes: number;
  /** Distinct errors, in order of first appearance. */
  errors: string[];
}

/** @internal */
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
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** A node with more stretches than this gets one note for all of them, so the notes stay readable over long runs. */
const GAPS_LISTED_PER_NODE = 3;

function describeGap(gap: SampleGap): string {
  return `${clock(gap.fromMs)}–${clock(gap.toMs)} UTC (${seconds(gap.toMs - gap.fromMs)}, ${plural(gap.scrapes, 'failed scrape')})`;
}

function describeErrors(errors: readonly string[]): string {
  return `${errors.slice(0, 2).join('; ')}${errors.length > 2 ? ` (+${errors.length - 2} more)` : ''}`;
}

/** Many stretches of one node in one note: how many, how long in all, the longest few, and the errors by count. */
function summarizeNodeGaps(node: string, gaps: readonly SampleGap[]): string {
  const totalMs = gaps.reduce((sum, gap) => sum + gap.toMs - gap.fromMs, 0);
  const scrapes = gaps.reduce((sum, gap) => sum + gap.scrapes, 0);
  const longest = [...gaps]
    .sort((a, b) => b.toMs - b.fromMs - (a.toMs - a.fromMs) || a.fromMs - b.fromMs)
    .slice(0, GAPS_LISTED_PER_NODE);
  const byError = new Map<string, number>();
  for (const gap of gaps) for (const error of gap.errors) byError.set(error, (byError.get(error) ?? 0) + 1);
  const errors = [...byError]
    .sort((a, b) => b[1] - a[1])
    .map(([error, count]) => `${error} (in ${count} stretch${count === 1 ? '' : 'es'})`);
  return (
    `${node}: no samples in ${gaps.length} stretches, ${seconds(totalMs)} in all (${plural(scrapes, 'failed scrape')}); ` +
    `the longest: ${longest.map((gap) => `${describeGap(gap)}: ${gap.errors[0]}`).join('; ')}; ` +
    `errors: ${describeErrors(errors)}`
  );
}

export function buildSampleGapWarnings(samples: SampleTable): ReportWarning[] {
  const byNode = new Map<string, SampleGap[]>();
  for (const gap of findSampleGaps(samples)) {
    const gaps = byNode.get(gap.node) ?? [];
    gaps.push(gap);
    byNode.set(gap.node, gaps);
  }
  const note = (message: string): ReportWarning => ({ level: 'note', stream: 'samples.jsonl', message });
  return [...byNode].flatMap(([node, gaps]) =>
    gaps.length > GAPS_LISTED_PER_NODE
      ? [note(summarizeNodeGaps(node, gaps))]
      : gaps.map((gap) => note(`${node}: no samples ${describeGap(gap)}: ${describeErrors(gap.errors)}`)),
  );
}
