import type { RunFile } from '../artifacts/index.js';
import type { TraceExtent } from '../collect/index.js';

// Is trace-<target>.json this run's trace of that target? Three checks a dropped-in, edited or misdated file fails:
// no span may end before it starts; the trace IDs must be those run.json recorded when the run saved the file (runs
// that record them); and every span must lie inside the target's build on this workstation's clock (its launch to
// its exit, else the run's window), allowing for the builder's measured clock offset (buildx's own spans are on
// this workstation's clock already). A trace that fails is left
// out: its target's figures are unknown (and marked partial), never a confident wrong number. Pure.

export interface TraceImplausibilityOptions {
  /** The file, e.g. `trace-pytorch.json`. */
  name: string;
  target: string;
  extent: TraceExtent;
  run: RunFile | undefined;
  /** The end of the window for a run or target still in flight. */
  nowMs: number;
}

/**
 * Allowed beyond a measured offset's uncertainty: BuildKit's own spans start after launch and end before exit.
 * @internal
 */
export const MEASURED_SLACK_MS = 2_000;
/**
 * Allowed when nothing measured the builder's clock: a skewed but real clock, not another day or another run.
 * @internal
 */
export const UNMEASURED_SLACK_MS = 120_000;

const iso = (ms: number): string => (Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms));

/** The builder's clock against this workstation's, as the run measured it; undefined when it did not. */
function findNodeOffset(run: RunFile, node: string): { offsetMs: number; uncertaintyMs: number } | undefined {
  const builder = run.builderClocks?.find((clock) => clock.node === node);
  if (builder && builder.source !== 'workstation clock') return builder;
  const reading = run.clocks?.find(
    (clock) => clock.role === 'node' && clock.host === node && clock.offsetMs !== null,
  );
  if (reading?.offsetMs == null) return builder;
  return { offsetMs: reading.offsetMs, uncertaintyMs: reading.uncertaintyMs ?? 0 };
}

/** Where the target's spans must lie on this workstation's clock: its launch to its exit, else the run's window. */
function findWindow(
  run: RunFile,
  target: string,
  nowMs: number,
): { fromMs: number; toMs: number; what: string } {
  const outcome = run.targets[target];
  if (outcome && 'startedAtMs' in outcome) {
    const finishedAtMs = 'finishedAtMs' in outcome ? outcome.finishedAtMs : nowMs;
    // A cancelled build's record is closed by BuildKit after its bake was stopped (decision, damaged-runs.md).
    const toMs = outcome.status === 'interrupted' ? finishedAtMs + UNMEASURED_SLACK_MS : finishedAtMs;
    return { fromMs: outcome.startedAtMs, toMs, what: `${target}'s build on ${outcome.node}` };
  }
  return {
    fromMs: run.startedAtMs,
    toMs: run.finishedAtMs ?? nowMs,
    what: 'the run',
  };
}

function findOutsideWindow({ name, target, extent, run, nowMs }: TraceImplausibilityOptions): string[] {
  if (run === undefined) return [];
  const window = findWindow(run, target, nowMs);
  const node = run.targets[target]?.node;
  const offset = node === undefined ? undefined : findNodeOffset(run, node);
  const slackMs =
    offset === undefined ? UNMEASURED_SLACK_MS : Math.abs(offset.uncertaintyMs) + MEASURED_SLACK_MS;
  const shiftMs = offset?.offsetMs ?? 0;
  const allowance =
    offset === undefined
      ? `${UNMEASURED_SLACK_MS / 1000} s either side (no clock offset measured for ${node ?? 'its node'})`
      : `${(slackMs / 1000).toFixed(1)} s either side, after the measured clock offset of ${node} (${(shiftMs / 1000).toFixed(3)} s)`;
  // The builder's spans on its clock; buildx's own on this workstation's, where no offset applies.
  const ranges = [
    { fromMs: extent.startMs, toMs: extent.endMs, shiftMs, slackMs, allowance, whose: 'its spans' },
    {
      fromMs: extent.clientStartMs,
      toMs: extent.clientEndMs,
      shiftMs: 0,
      slackMs: MEASURED_SLACK_MS,
      allowance: `${MEASURED_SLACK_MS / 1000} s either side, on this workstation's clock`,
      whose: 'its buildx spans',
    },
  ];
  return ranges.flatMap((range) => {
    if (range.fromMs === undefined || range.toMs === undefined) return [];
    const fromMs = range.fromMs - range.shiftMs;
    const toMs = range.toMs - range.shiftMs;
    if (fromMs >= window.fromMs - range.slackMs && toMs <= window.toMs + range.slackMs) return [];
    return [
      `${name}: ${range.whose} run from ${iso(fromMs)} to ${iso(toMs)}, outside ${window.what} (${iso(window.fromMs)} → ${iso(window.toMs)}, allowing ${range.allowance}): not this run's trace of ${target}; it is left out and ${target}'s build/total/upload figures are unknown`,
    ];
  });
}

function findForeignTraceIds({ name, target, extent, run }: TraceImplausibilityOptions): string[] {
  const recorded = run?.files?.[name]?.traceIds;
  if (recorded === undefined || recorded.length === 0) return [];
  const foreign = extent.traceIds.filter((id) => !recorded.includes(id));
  if (foreign.length === 0 && extent.traceIds.length > 0) return [];
  return [
    `${name}: trace ID ${extent.traceIds.join(', ') || 'none'}, but run.json recorded ${recorded.join(', ')} when the run saved it: another build's trace; it is left out and ${target}'s build/total/upload figures are unknown`,
  ];
}

function findNegativeSpans({ name, target, extent }: TraceImplausibilityOptions): string[] {
  if (extent.negativeSpans === 0) return [];
  const spans = extent.negativeSpans === 1 ? '1 span ends' : `${extent.negativeSpans} spans end`;
  return [
    `${name}: ${spans} before it starts (first: ${extent.firstNegative ?? '?'}), which BuildKit never writes: the file was edited; it is left out and ${target}'s build/total/upload figures are unknown`,
  ];
}

/** Every reason the trace is not this run's trace of the target; empty when it is plausible. */
export function findTraceImplausibility(options: TraceImplausibilityOptions): string[] {
  return [...findNegativeSpans(options), ...findForeignTraceIds(options), ...findOutsideWindow(options)];
}
