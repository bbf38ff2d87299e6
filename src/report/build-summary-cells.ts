import { toShownDifference } from '../shared/format-units.js';
import type { NodeSummary, Summary, TargetSummary } from '../artifacts/index.js';
import { formatBytes, formatDuration, formatPct } from './format-units.js';

// Table cells (plain text) that report.md and the page's summary tables share, so both show the same figures.

/** ` ⚠ partial (zot.jsonl)` after a figure's label when damaged input files leave it partial; '' when complete. */
export function formatPartial(partial: readonly string[]): string {
  return partial.length ? ` ⚠ partial (${partial.join(', ')})` : '';
}

export interface TargetCellsOptions {
  /** Put the planned node before the planned start → finish (report.md has no separate planned-node column). */
  withPlannedNode: boolean;
  /** When the model was made: a running target's total cell shows how long it has been running until then. */
  generatedAtMs: number;
}

/** A running target's total: the time it has run so far, marked as running. */
function formatRunning(t: TargetSummary, generatedAtMs: number): string {
  return t.startMs === null ? 'running' : `running ${formatDuration((generatedAtMs - t.startMs) / 1000)}`;
}

/** target, node, status, build, total, gap, upload, uploaded, cached steps, planned, critical. */
export function buildTargetCells(
  t: TargetSummary,
  { withPlannedNode, generatedAtMs }: TargetCellsOptions,
): string[] {
  const planned =
    t.plannedStartSeconds === null
      ? '—'
      : `${withPlannedNode ? `${t.plannedNode ?? ''} ` : ''}+${formatDuration(t.plannedStartSeconds)} → +${formatDuration(t.plannedFinishSeconds)}`;
  return [
    `${t.target}${formatPartial(t.partial)}`,
    t.node,
    t.status,
    formatDuration(t.buildSeconds),
    t.totalSeconds === null && t.status === 'running'
      ? formatRunning(t, generatedAtMs)
      : formatDuration(t.totalSeconds),
    // The gap as total − build as shown, so the row adds up to the digit.
    formatDuration(
      t.totalSeconds === null || t.buildSeconds === null
        ? t.exportSeconds
        : toShownDifference(t.totalSeconds, t.buildSeconds),
    ),
    formatDuration(t.uploadSeconds),
    formatBytes(t.uploadBytes),
    t.totalSteps === null ? '—' : `${t.cachedSteps}/${t.totalSteps}`,
    planned,
    t.onCriticalPath ? 'yes' : '',
  ];
}

export interface NodeCellsOptions {
  /** Add the number of targets the node ran after its builder (report.md). */
  withTargetCount: boolean;
}

/** The node-table headers that go with buildNodeCells. */
export function buildNodeHeaders({ withTargetCount }: NodeCellsOptions): string[] {
  return [
    'node',
    'builder',
    ...(withTargetCount ? ['targets'] : []),
    'busy',
    'idle',
    'utilisation',
    'CPU mean',
    'CPU peak',
    'memory peak',
    'scrape gaps',
    'upload rate (fit)',
    'per request',
    'link_mbps',
  ];
}

/** MB/s to three significant digits; `—` when not known. */
function formatMBps(mbps: number | null): string {
  return mbps === null ? '—' : `${Number(mbps.toPrecision(3))} MB/s`;
}

/**
 * The fitted link rate and its share of the link the plan assumed; `—` with the reason when the pushes were too
 * small to tell it (fewer than 2 wire-bound requests: docs/planning.md).
 */
function formatUploadRate(n: NodeSummary): string {
  const upload = n.upload;
  if (upload === null) return '—';
  if (upload.rateMBps === null) return '— (time does not grow with bytes)';
  if (upload.wireBound < 2)
    return `— (pushes too small to tell: ${upload.wireBound} of ${upload.requests} requests wire-bound)`;
  const share =
    n.configuredLinkMbps === null ? '' : ` (${formatPct((100 * upload.rateMBps) / n.configuredLinkMbps)})`;
  return `${formatMBps(upload.rateMBps)}${share}`;
}

/** The per-request cost as what it is: latency in ms, with how far single requests stray. */
function formatRequestCost(n: NodeSummary): string {
  return n.upload === null
    ? '—'
    : `${Math.round(n.upload.latencyMs)} ms ±${Math.round(n.upload.noiseMs)} (${n.upload.requests} requests)`;
}

/** node, builder, [targets,] busy, idle, utilisation, CPU mean, CPU peak, memory peak, scrape gaps, upload, link. */
export function buildNodeCells(n: NodeSummary, { withTargetCount }: NodeCellsOptions): string[] {
  return [
    `${n.node}${formatPartial(n.partial)}`,
    n.builder,
    ...(withTargetCount ? [String(n.targets.length)] : []),
    formatDuration(n.busySeconds),
    formatDuration(n.idleSeconds),
    formatPct(n.utilisationPct),
    formatPct(n.cpuMeanPct),
    formatPct(n.cpuPeakPct),
    formatPct(n.memPeakPct),
    // No samples of the node at all (CPU mean unknown): its scrape gaps are not known either, not 0.
    n.cpuMeanPct === null && n.sampleGaps === 0 ? '—' : String(n.sampleGaps),
    formatUploadRate(n),
    formatRequestCost(n),
    formatMBps(n.configuredLinkMbps),
  ];
}

/** One row per side (cache, image): kind, bytes written, blobs, manifests. */
export function buildRegistryRows(registry: Summary['registry']): string[][] {
  return (['cache', 'image'] as const).map((kind) => [
    kind,
    formatBytes(registry[kind].bytesWritten),
    String(registry[kind].blobsWritten),
    String(registry[kind].manifestsWritten),
  ]);
}

/**
 * Why a section's figures are not there, when its one input file is absent (not damaged): the note the report
 * wrote for it (e.g. `sccache.log: not recorded in a .dockerbuild …`), so the section says so instead of a table of
 * zeros. Undefined when the file is present, or absent with a loud warning (those figures are marked partial).
 */
export function findAbsentNote(summary: Summary, stream: string): string | undefined {
  if (summary.streams[stream]?.present !== false) return undefined;
  return summary.warnings.find((w) => w.level === 'note' && w.stream === stream)?.message;
}
