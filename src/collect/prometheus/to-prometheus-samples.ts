import { type Sample, SAMPLES_VERSION } from '../../artifacts/index.js';
import type { SampleFigure } from './build-samples-query.js';
import type { FigurePoints } from './parse-prometheus-response.js';
import { toMemTotal } from '../node-exporter/compute-rates.js';

// Points from Prometheus → samples.jsonl lines, with compute-rates.ts's rules: CPU busy from summed deltas
// (iowait idle), B/s over Δt of node_time_seconds, a counter that went backwards nulls its figure, a reboot
// nulls every rate, a missing figure is null (never 0). A step at which Prometheus holds no successful scrape
// of the node's instance is a gap line, as the scrape sampler writes for a failed scrape.

export interface PrometheusNode {
  name: string;
  /** The `instance` label of the node's node_exporter series. */
  instance: string;
}

export interface ToPrometheusSamplesOptions {
  nodes: readonly PrometheusNode[];
  /** Evaluation times, ms (the range's steps, or the one instant). */
  stepsMs: readonly number[];
  stepMs: number;
  points: FigurePoints;
  /** Names the source in gap lines, e.g. `prometheus http://prom:9090`. */
  source: string;
}

export function toPrometheusSamples(options: ToPrometheusSamplesOptions): Sample[] {
  const samples: Sample[] = [];
  for (const tsMs of options.stepsMs)
    for (const node of options.nodes) samples.push(toPrometheusSample(node, tsMs, options));
  return samples;
}

function toPrometheusSample(
  node: PrometheusNode,
  tsMs: number,
  { points, stepMs, source }: ToPrometheusSamplesOptions,
): Sample {
  const byFigure = points.get(node.instance);
  const get = (figure: SampleFigure): number | undefined => {
    const value = byFigure?.get(figure)?.get(tsMs);
    return value === undefined || Number.isNaN(value) ? undefined : value;
  };
  const up = get('up');
  if (up === undefined || up < 1) {
    const why =
      up === undefined
        ? `has no scrape of instance "${node.instance}" in the ${stepMs} ms before this step`
        : `recorded only failed scrapes (up = 0) of instance "${node.instance}" in the ${stepMs} ms before this step`;
    return { version: SAMPLES_VERSION, node: node.name, tsMs, ok: false, error: `${source} ${why}` };
  }
  const rebooted = (get('bootDelta') ?? 0) > 1;
  const timeDelta = get('timeDelta');
  const seconds = timeDelta !== undefined && timeDelta > 0 ? timeDelta : stepMs / 1000;
  const perSecond = (sum: SampleFigure, min: SampleFigure): number | null => {
    const delta = get(sum);
    const lowest = get(min);
    if (rebooted || delta === undefined || (lowest !== undefined && lowest < 0)) return null;
    return delta / seconds;
  };
  return {
    version: SAMPLES_VERSION,
    node: node.name,
    tsMs,
    ok: true,
    cpuBusyPct: rebooted ? null : toCpuBusyPct(get('cpuTotal'), get('cpuIdle'), get('cpuMin')),
    memUsedPct: toMemUsedPct(get('memTotal'), get('memAvailable')),
    diskReadBps: perSecond('diskRead', 'diskReadMin'),
    diskWriteBps: perSecond('diskWrite', 'diskWriteMin'),
    netRxBps: perSecond('netRx', 'netRxMin'),
    netTxBps: perSecond('netTx', 'netTxMin'),
    load1: get('load1') ?? null,
    ...toMemTotal(get('memTotal')),
  };
}

function toCpuBusyPct(
  total: number | undefined,
  idle: number | undefined,
  lowest: number | undefined,
): number | null {
  if (total === undefined || !(total > 0) || (lowest !== undefined && lowest < 0)) return null;
  if (idle === undefined) return null;
  return clampPct((100 * (total - idle)) / total);
}

function toMemUsedPct(total: number | undefined, available: number | undefined): number | null {
  if (total === undefined || !(total > 0) || available === undefined) return null;
  return clampPct(100 * (1 - available / total));
}

function clampPct(value: number): number | null {
  if (!Number.isFinite(value)) return null;
  return Math.min(100, Math.max(0, value));
}

/** The steps of a range query: start, start + step, … up to end (Prometheus evaluates exactly these). */
export function toRangeSteps({
  startMs,
  endMs,
  stepMs,
}: {
  startMs: number;
  endMs: number;
  stepMs: number;
}): number[] {
  const steps: number[] = [];
  for (let tsMs = startMs; tsMs <= endMs; tsMs += stepMs) steps.push(tsMs);
  return steps;
}
