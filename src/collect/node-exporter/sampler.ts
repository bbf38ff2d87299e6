import { createNodeLoops } from '../../shared/create-node-loops.js';
import type { Dispatcher } from 'undici';
import { systemClock, type Clock } from '../../shared/clock.js';
import { HttpError } from '../../shared/errors.js';
import { findStreamWarnings, type Sample, SAMPLES_VERSION } from '../../artifacts/index.js';
import { computeSample, type ScrapeSnapshot } from './compute-rates.js';
import { fetchMetricsText, type FetchMetrics } from './fetch-metrics.js';
import { parseMetrics } from './parse-metrics.js';
import { sleep } from '../../shared/sleep.js';

// Scrapes every node's /metrics on an interval. Each node runs its own loop, so a slow or dead node delays
// nobody; a failed scrape is a recorded gap `{ok:false, error}` and the node is tried again next tick.

interface SamplerNode {
  name: string;
  url: string;
}

export interface CreateSamplerOptions {
  nodes: readonly SamplerNode[];
  /** `--sample-interval-ms` (its default is the flag table's, commands/flags/harness-flags.ts). */
  sampleIntervalMs: number;
  /** How long one scrape may take before it counts as a gap. Default: the interval. */
  timeoutMs?: number;
  onSample: (sample: Sample) => void;
  fetchMetrics?: FetchMetrics;
  dispatcher?: Dispatcher;
  clock?: Clock;
}

export interface Sampler {
  start(): void;
  /** Stops every loop, aborting scrapes in flight (they record nothing). Rethrows an onSample failure. */
  stop(): Promise<void>;
}

interface LoopContext {
  sampleIntervalMs: number;
  timeoutMs: number;
  onSample: (sample: Sample) => void;
  fetchMetrics: FetchMetrics;
  dispatcher: Dispatcher | undefined;
  clock: Clock;
  signal: AbortSignal;
}

export function createSampler(options: CreateSamplerOptions): Sampler {
  const controller = new AbortController();
  const { sampleIntervalMs } = options;
  const context: LoopContext = {
    sampleIntervalMs,
    timeoutMs: options.timeoutMs ?? sampleIntervalMs,
    onSample: options.onSample,
    fetchMetrics: options.fetchMetrics ?? fetchMetricsText,
    dispatcher: options.dispatcher,
    clock: options.clock ?? systemClock,
    signal: controller.signal,
  };
  return createNodeLoops(options.nodes, (node) => sampleNodeLoop(node, context), controller);
}

async function sampleNodeLoop(node: SamplerNode, context: LoopContext): Promise<void> {
  let previous: ScrapeSnapshot | undefined;
  while (!context.signal.aborted) {
    const startedMs = context.clock.nowMs();
    const outcome = await sampleNodeOnce(node, previous, context);
    if (context.signal.aborted) return;
    if (outcome.snapshot !== undefined) previous = outcome.snapshot;
    context.onSample(outcome.sample);
    const elapsedMs = context.clock.nowMs() - startedMs;
    await sleep(Math.max(0, context.sampleIntervalMs - elapsedMs), context.signal);
  }
}

interface ScrapeOutcome {
  sample: Sample;
  snapshot: ScrapeSnapshot | undefined;
}

/** One scrape of one node, as a value: a sample with rates, or a gap naming what went wrong. @internal */
export async function sampleNodeOnce(
  node: SamplerNode,
  previous: ScrapeSnapshot | undefined,
  context: Omit<LoopContext, 'sampleIntervalMs' | 'onSample'>,
): Promise<ScrapeOutcome> {
  const tsMs = context.clock.nowMs();
  const timeout = AbortSignal.timeout(context.timeoutMs);
  const signal = AbortSignal.any([context.signal, timeout]);
  try {
    const text = await context.fetchMetrics(node.url, { signal, dispatcher: context.dispatcher });
    const parsed = parseMetrics(text, `${node.name} ${node.url}`);
    const warnings = findStreamWarnings(parsed.stats);
    if (parsed.stats.records === 0)
      return { sample: toGap(node, tsMs, warnings[0] ?? 'empty metrics page'), snapshot: undefined };
    const sample = computeSample({ node: node.name, previous, current: parsed.families, tsMs });
    return { sample, snapshot: { tsMs, families: parsed.families } };
  } catch (error) {
    const message =
      timeout.aborted && !context.signal.aborted
        ? `${node.url}: no complete answer within ${context.timeoutMs} ms`
        : toMessage(node.url, error);
    return { sample: toGap(node, tsMs, message), snapshot: undefined };
  }
}

function toGap(node: SamplerNode, tsMs: number, error: string): Sample {
  return { version: SAMPLES_VERSION, node: node.name, tsMs, ok: false, error };
}

function toMessage(url: string, error: unknown): string {
  if (error instanceof HttpError) return error.message;
  if (!(error instanceof Error)) return `${url}: ${String(error)}`;
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  const code = (error as { code?: unknown }).code;
  const codeText = typeof code === 'string' && !error.message.includes(code) ? ` (${code})` : '';
  return `${url}: ${error.message}${codeText}${cause}`;
}
