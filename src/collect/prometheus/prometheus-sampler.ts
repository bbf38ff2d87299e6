import { rename, writeFile } from 'node:fs/promises';
import type { Dispatcher } from 'undici';
import type { Sample } from '../../artifacts/index.js';
import { systemClock, type Clock } from '../../shared/clock.js';
import { toSampleLine } from '../node-exporter/write-samples.js';
import { fetchSamplesPoints, type FetchSamplesPoints } from './fetch-prometheus.js';
import { toPrometheusSamples, toRangeSteps, type PrometheusNode } from './to-prometheus-samples.js';
import { sleep } from '../../shared/sleep.js';
import { errorMessage } from '../../shared/error-message.js';

// Prometheus as the sample source: no scrapes of our own. Live, one instant query per interval gives every
// node's line (the progress and `serve` see them); at finalize one query_range over the whole window at
// step = interval replaces samples.jsonl (temp file + rename, so a reader sees the old or the new file).

export interface CreatePrometheusSamplerOptions {
  prometheusUrl: string;
  nodes: readonly PrometheusNode[];
  /** `--sample-interval-ms`: the live poll interval, and the query_range step (`stepMs` in Prometheus's terms). */
  sampleIntervalMs: number;
  onSample: (sample: Sample) => void;
  fetchPoints?: FetchSamplesPoints;
  dispatcher?: Dispatcher;
  clock?: Clock;
}

export interface PrometheusSampler {
  start(): void;
  /** Stops polling; resolves when the poll in flight has ended. Rethrows an onSample failure. */
  stop(): Promise<void>;
  /** The whole window [first poll, `endMs`] at step = interval, as sample lines (gaps included). */
  fetchWindow(endMs: number): Promise<Sample[]>;
}

/** Prometheus answers at most 11,000 points per series; ask in chunks below that. */
const MAX_STEPS_PER_QUERY = 10_000;

export function createPrometheusSampler(options: CreatePrometheusSamplerOptions): PrometheusSampler {
  const { sampleIntervalMs } = options;
  const clock = options.clock ?? systemClock;
  const fetchPoints = options.fetchPoints ?? fetchSamplesPoints;
  const source = `prometheus ${options.prometheusUrl}`;
  const instances = options.nodes.map((node) => node.instance);
  const controller = new AbortController();
  let startMs: number | undefined;
  let loop: Promise<unknown> | undefined;
  const common = {
    prometheusUrl: options.prometheusUrl,
    instances,
    stepMs: sampleIntervalMs,
    ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
  };

  async function pollOnce(timeMs: number): Promise<void> {
    const signal = AbortSignal.any([controller.signal, AbortSignal.timeout(sampleIntervalMs)]);
    let samples: Sample[];
    try {
      const points = await fetchPoints({ ...common, at: { timeMs }, signal });
      samples = toPrometheusSamples({
        nodes: options.nodes,
        stepsMs: [timeMs],
        stepMs: sampleIntervalMs,
        points,
        source,
      });
    } catch (error) {
      const why = errorMessage(error);
      samples = options.nodes.map((node) => ({
        version: 1 as const,
        node: node.name,
        tsMs: timeMs,
        ok: false as const,
        error: `${source}: ${why}`,
      }));
    }
    if (!controller.signal.aborted) for (const sample of samples) options.onSample(sample);
  }

  async function pollLoop(): Promise<void> {
    while (!controller.signal.aborted) {
      const timeMs = clock.nowMs();
      await pollOnce(timeMs);
      await sleep(Math.max(0, sampleIntervalMs - (clock.nowMs() - timeMs)), controller.signal);
    }
  }

  return {
    start() {
      startMs ??= clock.nowMs();
      loop ??= pollLoop().then(
        () => undefined,
        (error: unknown) => ({ error }),
      );
    },
    async stop() {
      controller.abort();
      const result = await loop;
      if (result !== undefined) throw (result as { error: unknown }).error;
    },
    async fetchWindow(endMs) {
      const steps = toRangeSteps({ startMs: startMs ?? endMs, endMs, stepMs: sampleIntervalMs });
      const samples: Sample[] = [];
      for (let i = 0; i < steps.length; i += MAX_STEPS_PER_QUERY) {
        const chunk = steps.slice(i, i + MAX_STEPS_PER_QUERY);
        const first = chunk[0] ?? endMs;
        const last = chunk[chunk.length - 1] ?? endMs;
        const points = await fetchPoints({ ...common, at: { startMs: first, endMs: last } });
        samples.push(
          ...toPrometheusSamples({
            nodes: options.nodes,
            stepsMs: chunk,
            stepMs: sampleIntervalMs,
            points,
            source,
          }),
        );
      }
      return samples;
    },
  };
}

/** Replaces `path` with these sample lines atomically: a temp file beside it, then rename. */
export async function writeSamplesFile(
  path: string,
  samples: readonly Sample[],
  /** Sees the new file's bytes (a run's digest of samples.jsonl starts over). */
  digest?: { update(bytes: string): void; restart(): void },
): Promise<void> {
  const temp = `${path}.tmp-${process.pid}`;
  const text = samples.map(toSampleLine).join('');
  await writeFile(temp, text);
  await rename(temp, path);
  digest?.restart();
  digest?.update(text);
}
