import type { NodeSamples, RunFile, SampleTable } from '../artifacts/index.js';
import type { Interval } from '../shared/intervals.js';

// samples.jsonl against the run: every node run.json names should have a line (a good or a failed scrape) about
// every sampling interval over the makespan. A stretch with no line at all is not a failed scrape (those are
// written and noted as gaps) but lines that never reached the file or were lost from it: a file cut short, lines
// deleted, a sampler that died. Pure.

/** The nodes whose samples are short, and one message for all of them. */
export interface SampleShortfall {
  nodes: string[];
  message: string;
}

export interface FindSampleShortfallOptions {
  samples: SampleTable;
  run: RunFile | undefined;
  /** The measured makespan (first start to last end). */
  window: Interval | undefined;
}

/** A stretch longer than this many intervals without a line is missing lines; and never under 2 s. */
const MISSING_INTERVALS = 3;
const MIN_MISSING_MS = 2000;

/** The node's usual spacing: run.json's interval, else the median step of its own lines, else 1 s. */
function intervalOf(columns: NodeSamples | undefined, recordedMs: number | undefined): number {
  if (recordedMs !== undefined) return recordedMs;
  if (columns === undefined || columns.length < 3) return 1000;
  const steps: number[] = [];
  for (let i = 1; i < columns.length; i++) steps.push(columns.tsMs[i]! - columns.tsMs[i - 1]!);
  steps.sort((a, b) => a - b);
  return Math.max(1, steps[Math.floor(steps.length / 2)]!);
}

/** The longest stretches of the window without a line of this node: at the start, between lines, at the end. */
function findHoles(columns: NodeSamples | undefined, [fromMs, toMs]: Interval): Interval[] {
  const times: number[] = [fromMs];
  for (let i = 0; columns !== undefined && i < columns.length; i++) {
    const tsMs = columns.tsMs[i]!;
    if (tsMs > fromMs && tsMs < toMs) times.push(tsMs);
  }
  times.push(toMs);
  const holes: Interval[] = [];
  for (let i = 1; i < times.length; i++) holes.push([times[i - 1]!, times[i]!]);
  return holes;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

interface NodeShortfall {
  node: string;
  missingMs: number;
  samples: number;
  holes: Interval[];
}

function describeNode({ node, missingMs, samples, holes }: NodeShortfall, originMs: number): string {
  const where = holes
    .slice(0, 2)
    .map(([a, b]) => `+${seconds(a - originMs)} → +${seconds(b - originMs)}`)
    .join(', ');
  return `${node} ${seconds(missingMs)} (${where}${holes.length > 2 ? `, ${holes.length - 2} more` : ''}; about ${samples} samples)`;
}

/** One message for every node short of lines over the makespan; undefined when none is. */
export function findSampleShortfall({
  samples,
  run,
  window,
}: FindSampleShortfallOptions): SampleShortfall | undefined {
  if (run === undefined || run.status === 'running' || window === undefined) return undefined;
  const short: NodeShortfall[] = [];
  for (const { name: node } of run.nodes) {
    const columns = samples.nodes.get(node);
    const intervalMs = intervalOf(columns, run.samples?.intervalMs);
    const limitMs = Math.max(MISSING_INTERVALS * intervalMs, MIN_MISSING_MS);
    const holes = findHoles(columns, window).filter(([a, b]) => b - a > limitMs);
    const missingMs = holes.reduce((sum, [a, b]) => sum + b - a, 0);
    if (holes.length > 0) short.push({ node, missingMs, samples: Math.round(missingMs / intervalMs), holes });
  }
  if (short.length === 0) return undefined;
  const listed = short.slice(0, 6).map((one) => describeNode(one, window[0]));
  const more = short.length > 6 ? `; ${short.length - 6} more nodes` : '';
  return {
    nodes: short.map((one) => one.node),
    message:
      `samples.jsonl: no line at all over part of the ${seconds(window[1] - window[0])} makespan for ${short.length} of ${run.nodes.length} nodes: ` +
      `${listed.join('; ')}${more}. Lines lost from the file, not failed scrapes (those are written); the CPU and memory figures of those nodes are partial`,
  };
}
