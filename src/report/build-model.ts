import { type RunInputs } from '../run-dir/index.js';
import {
  DATA_VERSION,
  RUN_CHECKS_VERSION,
  type DataFile,
  type NodeSummary,
  type ReportWarning,
  type RunFile,
  type RunInfo,
  type StreamSummary,
  type Summary,
  type TargetSummary,
  RUN_DIR_FILES,
} from '../artifacts/index.js';
import { alignTraces, buildClockWarnings } from './align-traces.js';
import { buildCriticalPath } from './build-critical-path.js';
import { buildNodes } from './build-nodes.js';
import { measureUploadLinks, toUploadObservations } from '../plan/index.js';
import { buildRegistrySummary, buildSccacheSummary } from './build-cache-summary.js';
import { buildSeries } from './build-series.js';
import { buildTargets, round, UNKNOWN_NODE } from './build-targets.js';
import { buildUsage } from './build-usage.js';
import { buildStreamSummary, buildWarnings } from './build-warnings.js';
import { buildPlanNotes } from './build-plan-notes.js';
import { buildForecastSummary, describeForecastMiss } from './build-forecast-summary.js';
import { findSampleShortfall } from './find-sample-shortfall.js';
import { markPartialFigures } from './mark-partial-figures.js';

import type { Interval } from '../shared/intervals.js';

// Run inputs (parsed records) → the data.json model. Pure: no I/O, no clock (generatedAtMs arrives as input).

export function buildReportModel(raw: RunInputs): DataFile {
  const { traces, builderClocks } = alignTraces(raw.run, raw.traces);
  const inputs: RunInputs = { ...raw, traces };
  const inFlight = inputs.run?.status === 'running';
  const lanes = buildLanes(inputs);
  const builderOf = (node: string): string => lanes.find((l) => l.node === node)?.builder ?? node;
  const provisionalOrigin = inputs.run?.measuredStartedAtMs ?? earliestStart(inputs) ?? inputs.generatedAtMs;
  const { targets, bands } = buildTargets({ inputs, originMs: provisionalOrigin, builderOf });
  const window = buildWindow({ inputs, targets, inFlight });
  const criticalPath = buildCriticalPath({ targets, deps: depsOf(inputs) });
  const onPath = new Set(criticalPath.targets);
  const markedTargets = targets.map((t) => ({ ...t, onCriticalPath: onPath.has(t.target) }));
  const clockOffsetsMs = new Map(builderClocks.map((clock) => [clock.node, clock.offsetMs]));
  const summary = buildSummary({
    inputs,
    targets: markedTargets,
    lanes,
    window,
    inFlight,
    criticalPath,
    clockOffsetsMs,
  });
  summary.warnings.push(...buildClockWarnings(inputs.run, builderClocks));
  const originMs = window?.[0] ?? provisionalOrigin;
  return {
    version: DATA_VERSION,
    generatedAtMs: inputs.generatedAtMs,
    run: buildRunInfo(inputs),
    summary,
    timeline: {
      originMs,
      endMs: Math.max(window?.[1] ?? originMs, lastSampleMs(inputs) ?? originMs),
      lanes,
      bands,
      planned: buildPlanned(inputs, originMs),
    },
    series: buildSeries({ samples: inputs.samples, lanes, pointsPerSeries: inputs.seriesPoints }),
  };
}

interface SummaryOptions {
  inputs: RunInputs;
  targets: TargetSummary[];
  lanes: { node: string; builder: string }[];
  window: Interval | undefined;
  inFlight: boolean;
  criticalPath: { targets: string[]; seconds: number | null };
  /** Each builder's clock − this workstation's (align-traces.ts), for the step-usage join's vertex times. */
  clockOffsetsMs: ReadonlyMap<string, number>;
}

/** The bootstrap builds before the measured run, outside its makespan; null when there were none (or unrecorded). */
function summarizeBootstrap(builds: RunFile['bootstrap']): Summary['bootstrap'] {
  if (!builds || builds.length === 0) return null;
  const first = Math.min(...builds.map((build) => build.startedAtMs));
  const last = Math.max(...builds.map((build) => build.finishedAtMs));
  return {
    seconds: round((last - first) / 1000),
    targets: builds.map((build) => ({
      target: build.target,
      node: build.node,
      seconds: round((build.finishedAtMs - build.startedAtMs) / 1000),
    })),
  };
}

function buildSummary({
  inputs,
  targets,
  lanes,
  window,
  inFlight,
  criticalPath,
  clockOffsetsMs,
}: SummaryOptions): Summary {
  const sccache = buildSccacheSummary(inputs.sccache, inputs.run?.sccachePrefix);
  const registry = buildRegistrySummary(inputs.registry);
  const streams: Record<string, StreamSummary> = Object.fromEntries(
    [...inputs.streams]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((stream) => [stream.name, buildStreamSummary({ stream, run: inputs.run, inFlight })]),
  );
  const samplesStream = streams[RUN_DIR_FILES.samples];
  const sampleShortfall =
    samplesStream?.present && samplesStream.bytes > 0
      ? findSampleShortfall({ samples: inputs.samples, run: inputs.run, window })
      : undefined;
  const warnings = buildWarnings({ inputs, streams, targets, sccache, registry, inFlight, sampleShortfall });
  const nodes = buildNodes({ lanes, targets, samples: inputs.samples, window, links: buildLinks(inputs) });
  const marked = markPartialFigures({ streams, targets, nodes, sampleShortfall });
  const partial = withUsage({ inputs, marked, warnings, clockOffsetsMs });
  const makespanSeconds = window ? round((window[1] - window[0]) / 1000) : null;
  const lowerBoundSeconds = inputs.plan ? round(inputs.plan.lowerBoundSeconds) : null;
  const forecast = buildForecastSummary({
    plan: inputs.plan,
    run: inputs.run,
    targets: partial.targets,
    makespanSeconds,
    generatedAtMs: inputs.generatedAtMs,
  });
  if (inputs.run !== undefined && inputs.run.deps === undefined && inputs.plan === undefined)
    warnings.push({
      level: 'note',
      stream: 'plan.json',
      message:
        "the measured critical path follows the node queues only: run.json records no dependencies (a run recorded before rocm-perf kept them) and plan.json is absent or not this run's",
    });
  const miss = describeForecastMiss(forecast);
  if (miss) warnings.push({ level: 'note', stream: null, message: miss });
  return {
    harness: inputs.run?.harness ?? 'unknown',
    namespace: inputs.run?.namespace ?? null,
    makespanSeconds,
    plannedMakespanSeconds: inputs.plan ? round(inputs.plan.makespanSeconds) : null,
    lowerBoundSeconds,
    planNotes: buildPlanNotes({
      run: inputs.run,
      plan: inputs.plan,
      targets: partial.targets,
      makespanSeconds,
      lowerBoundSeconds,
    }),
    partial: [...new Set(partial.run)],
    bootstrap: summarizeBootstrap(inputs.run?.bootstrap),
    targets: partial.targets,
    nodes: partial.nodes,
    why: null,
    advice: null,
    sccache: { ...sccache, partial: partial.sccache },
    registry: { ...registry, partial: partial.registry },
    criticalPath: {
      measured: criticalPath.targets,
      measuredSeconds: criticalPath.seconds,
      planned: [...(inputs.plan?.criticalPath ?? [])],
    },
    forecast,
    streams,
    warnings,
  };
}

/** targets[].usage and nodes[].usage (build-usage.ts), with its notes among the warnings. */
function withUsage<T extends { targets: TargetSummary[]; nodes: NodeSummary[] }>(options: {
  inputs: RunInputs;
  marked: T;
  warnings: ReportWarning[];
  clockOffsetsMs: ReadonlyMap<string, number>;
}): T {
  const { inputs, marked, warnings } = options;
  if (inputs.usage === undefined) return marked;
  const usage = buildUsage({
    usage: inputs.usage.usage,
    targets: marked.targets,
    nodes: marked.nodes,
    clockOffsetsMs: options.clockOffsetsMs,
  });
  warnings.push(...inputs.usage.warnings, ...usage.warnings);
  return { ...marked, targets: usage.targets, nodes: usage.nodes };
}

/** Each node's measured uploads (the latency + rate fit, and bytes ÷ the union of its spans) beside its link_mbps. */
function buildLinks(inputs: RunInputs): Parameters<typeof buildNodes>[0]['links'] {
  const run = inputs.run;
  if (!run) return { measured: new Map(), configuredMbps: new Map() };
  const { uploads } = toUploadObservations({ run, traces: inputs.traces });
  return {
    measured: new Map(measureUploadLinks(uploads).map((link) => [link.node, link])),
    // A .dockerbuild's run knows no link (docs/dockerbuild.md): its link_mbps is not a figure to show.
    configuredMbps: new Map(
      run.imported === undefined ? run.nodes.map((node) => [node.name, node.linkMbps]) : [],
    ),
  };
}

function buildRunInfo(inputs: RunInputs): RunInfo {
  const { run, plan } = inputs;
  return {
    // The run's own stamp (run.json), so diff and trends name a run as it named itself; the folder name only
    // without run.json. The folder name is the run's address (URLs, RUN arguments), not its identity.
    stamp: run?.stamp ?? inputs.stamp,
    harness: run?.harness ?? 'unknown',
    lane: inputs.lane,
    namespace: run?.namespace ?? null,
    arch: run?.arch ?? null,
    status: run?.status ?? 'unknown',
    startedAtMs: run ? (run.measuredStartedAtMs ?? run.startedAtMs) : null,
    finishedAtMs: run?.finishedAtMs ?? null,
    hasRunFile: run !== undefined,
    hasPlanFile: plan !== undefined,
    runChecks: RUN_CHECKS_VERSION,
    strategy: plan?.strategy ?? null,
    dispatch: run === undefined ? null : (run.dispatch ?? 'fixed'),
    artifacts: [...inputs.artifacts],
    samples: run?.samples
      ? {
          source: run.samples.source,
          intervalMs: run.samples.intervalMs,
          prometheusUrl: run.samples.prometheusUrl ?? null,
        }
      : null,
  };
}

/** Lanes: run.json's nodes in fleet order, then any other node a target or a sample names. */
function buildLanes(inputs: RunInputs): { node: string; builder: string }[] {
  const lanes = (inputs.run?.nodes ?? []).map((n) => ({ node: n.name, builder: n.builder }));
  const seen = new Set(lanes.map((l) => l.node));
  const extra = [
    ...Object.values(inputs.plan?.targets ?? {}).map((t) => t.node),
    ...Object.values(inputs.run?.targets ?? {}).map((t) => t.node),
    ...inputs.samples.nodes.keys(),
  ];
  for (const node of [...new Set(extra)].sort()) {
    if (!seen.has(node)) lanes.push({ node, builder: node });
    seen.add(node);
  }
  const traced = new Set(inputs.traces.map((t) => t.target));
  const unplaced = [...traced].some((t) => !inputs.run?.targets[t] && !inputs.plan?.targets[t]);
  if (unplaced && !seen.has(UNKNOWN_NODE)) lanes.push({ node: UNKNOWN_NODE, builder: UNKNOWN_NODE });
  return lanes;
}

function buildWindow({
  inputs,
  targets,
  inFlight,
}: {
  inputs: RunInputs;
  targets: TargetSummary[];
  inFlight: boolean;
}): Interval | undefined {
  const starts = targets.flatMap((t) => (t.startMs === null ? [] : [t.startMs]));
  const ends = targets.flatMap((t) =>
    t.endMs === null ? (t.startMs !== null && inFlight ? [inputs.generatedAtMs] : []) : [t.endMs],
  );
  if (starts.length === 0 || ends.length === 0) return undefined;
  const origin = inputs.run?.measuredStartedAtMs ?? Math.min(...starts);
  const end = Math.max(...ends);
  return end > origin ? [origin, end] : undefined;
}

// Each node's samples are in time order (SampleTable): its first and last are its earliest and latest.
function earliestStart(inputs: RunInputs): number | undefined {
  let min = Number.POSITIVE_INFINITY;
  for (const trace of inputs.traces) min = Math.min(min, trace.startMs);
  for (const columns of inputs.samples.nodes.values())
    if (columns.length > 0) min = Math.min(min, columns.tsMs[0]!);
  return Number.isFinite(min) ? min : undefined;
}

function lastSampleMs(inputs: RunInputs): number | undefined {
  let max = Number.NEGATIVE_INFINITY;
  for (const columns of inputs.samples.nodes.values())
    if (columns.length > 0) max = Math.max(max, columns.tsMs[columns.length - 1]!);
  return Number.isFinite(max) ? max : undefined;
}

/** The dependencies the run used: run.json's own record; an older run's plan.json when it passed its checks. */
function depsOf(inputs: RunInputs): Record<string, readonly string[]> {
  if (inputs.run?.deps) return inputs.run.deps;
  return Object.fromEntries(Object.entries(inputs.plan?.targets ?? {}).map(([name, t]) => [name, t.deps]));
}

function buildPlanned(inputs: RunInputs, originMs: number): DataFile['timeline']['planned'] {
  return Object.entries(inputs.plan?.targets ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([target, t]) => ({
      target,
      node: t.node,
      startMs: originMs + t.startSeconds * 1000,
      endMs: originMs + t.finishSeconds * 1000,
    }));
}
