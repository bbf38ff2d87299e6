import { learnNodeMemory, type MemoryFinding, type MemoryObservation } from './learn-node-memory.js';
import type { RunFile } from '../artifacts/index.js';
import type { TargetTrace } from '../collect/index.js';
import { totalLengthMs, type Interval } from '../shared/intervals.js';
import { fitNodeSpeeds, type BuildObservation, type SpeedEstimate } from './fit-node-speeds.js';
import {
  fitUploadLink,
  MIN_WIRE_BOUND_REQUESTS,
  toLinkLoads,
  type UploadLinkFit,
  type UploadRequest,
} from './fit-upload-link.js';

// The fleet model learns (docs/planning.md): each node's link from what its traces pushed, request by request, as a
// per-request latency plus bytes over a rate (fit-upload-link.ts), and its relative speed from builds of the same
// target on other nodes (fit-node-speeds.ts), against fleet.yaml's link_mbps and speed; a change is suggested only
// when the measurement says so. Pure.

/** One target's uploads in one run: every upload's size is known (else the target is not observed). */
export interface UploadObservation {
  run: string;
  node: string;
  target: string;
  bytes: number;
  spans: readonly Interval[];
  /** Each sized upload request, for the latency + rate fit. */
  requests: readonly UploadRequest[];
}

/** A run's uploads per target (status ok, a trace with uploads, every upload sized), and notes for the rest. */
export function toUploadObservations({
  run,
  traces,
}: {
  run: Pick<RunFile, 'stamp' | 'targets'>;
  traces: Iterable<TargetTrace>;
}): { uploads: UploadObservation[]; notes: string[] } {
  const uploads: UploadObservation[] = [];
  const notes: string[] = [];
  for (const trace of traces) {
    const outcome = run.targets[trace.target];
    if (outcome?.status !== 'ok' || trace.uploads.length === 0) continue;
    const unsized = trace.uploads.filter((upload) => upload.bytes === null).length;
    if (unsized > 0) {
      notes.push(
        `${trace.target} (run ${run.stamp}): ${unsized} of ${trace.uploads.length} uploads carry no size; its uploads are left out of ${outcome.node}'s throughput`,
      );
      continue;
    }
    uploads.push({
      run: run.stamp,
      node: outcome.node,
      target: trace.target,
      bytes: trace.uploads.reduce((sum, upload) => sum + (upload.bytes ?? 0), 0),
      spans: trace.uploads.map((upload): Interval => [upload.startMs, upload.endMs]),
      requests: trace.uploads.map((upload) => ({
        run: run.stamp,
        startMs: upload.startMs,
        endMs: upload.endMs,
        bytes: upload.bytes ?? 0,
      })),
    });
  }
  return { uploads, notes };
}

export interface LinkMeasurement {
  node: string;
  bytes: number;
  /** The union of the node's upload spans in each run, summed over the runs. */
  uploadSeconds: number;
  /**
   * bytes ÷ uploadSeconds, in MB/s (1 MB = 10^6 bytes): the effective throughput of these pushes, latency included.
   * Not the link's rate when the pushes are small (that is `fit.rateMBps`).
   */
  effectiveMBps: number;
  /** The node's requests fitted as latency + bytes ÷ rate. */
  fit: UploadLinkFit;
  targets: number;
  runs: number;
}

/**
 * Per node (sorted): the latency + rate fit over its requests, and total bytes ÷ the union of its upload time. A
 * node with no upload time has no measurement.
 */
export function measureUploadLinks(uploads: readonly UploadObservation[]): LinkMeasurement[] {
  const nodes = [...new Set(uploads.map((u) => u.node))].sort();
  return nodes.flatMap((node) => {
    const mine = uploads.filter((u) => u.node === node);
    const runs = [...new Set(mine.map((u) => u.run))];
    const uploadMs = runs.reduce(
      (sum, run) => sum + totalLengthMs(mine.filter((u) => u.run === run).flatMap((u) => u.spans)),
      0,
    );
    if (!(uploadMs > 0)) return [];
    const bytes = mine.reduce((sum, u) => sum + u.bytes, 0);
    const fit = fitUploadLink(toLinkLoads(mine.flatMap((u) => u.requests)));
    if (!fit) return [];
    return [
      {
        node,
        bytes,
        uploadSeconds: uploadMs / 1000,
        effectiveMBps: bytes / (uploadMs / 1000) / 1e6,
        fit,
        targets: new Set(mine.map((u) => u.target)).size,
        runs: runs.length,
      },
    ];
  });
}

/** A change is suggested only when it is more than this share (and outside twice the measurement's standard error). */
const MIN_SUGGESTED_CHANGE = 0.1;

interface Verdict {
  suggest: boolean;
  /** Why not, when not. */
  why: string | undefined;
}

/** Suggest when |ln(measured ÷ configured)| exceeds ln 1.1 and twice the standard error of ln(measured). @internal */
export function judgeChange({
  measured,
  configured,
  logSe,
}: {
  measured: number;
  configured: number;
  logSe: number | undefined;
}): Verdict {
  const distance = Math.abs(Math.log(measured / configured));
  if (distance <= Math.log(1 + MIN_SUGGESTED_CHANGE))
    return { suggest: false, why: `within ${MIN_SUGGESTED_CHANGE * 100} %` };
  if (logSe === undefined) return { suggest: false, why: 'too few measurements to know their spread' };
  if (distance <= 2 * logSe) return { suggest: false, why: 'within twice its standard error' };
  return { suggest: true, why: undefined };
}

/**
 * A link change needs a rate the evidence can tell: at least MIN_WIRE_BOUND_REQUESTS requests whose bytes, not the
 * per-request latency, set their time (fit-upload-link.ts); then judgeChange on the fitted rate, with the standard
 * error of ln(rate) taken as the spread of those requests' own rates ÷ √their count.
 */
function judgeLink(fit: UploadLinkFit, configuredMbps: number): Verdict {
  if (fit.rateMBps === undefined)
    return { suggest: false, why: 'no rate: request time does not grow with bytes in these runs' };
  if (fit.wireBound < MIN_WIRE_BOUND_REQUESTS)
    return {
      suggest: false,
      why: `transfers too small to tell the rate: ${fit.wireBound} of ${fit.requests} requests spent 3× their per-request cost and 0.1 s on the wire (${MIN_WIRE_BOUND_REQUESTS} needed)`,
    };
  const logSe = fit.logSigma === undefined ? undefined : fit.logSigma / Math.sqrt(fit.wireBound);
  return judgeChange({ measured: fit.rateMBps, configured: configuredMbps, logSe });
}

export interface FleetNodeSetting {
  name: string;
  linkMbps: number;
  speed: number;
  memoryBytes?: number | undefined;
}

export interface LinkFinding extends LinkMeasurement {
  configuredMbps: number | undefined;
  verdict: Verdict;
  /** The suggested link_mbps (three significant digits) when the verdict suggests one. */
  suggestedMbps: number | undefined;
}

export type SpeedFinding = SpeedEstimate & {
  configuredSpeed: number | undefined;
  verdict: Verdict | undefined;
  suggestedSpeed: number | undefined;
};

export interface FleetLearning {
  links: LinkFinding[];
  /** Nodes of the fleet that uploaded nothing measurable in these runs. */
  unmeasuredLinks: string[];
  speeds: SpeedFinding[];
  residualSigma: number | undefined;
  /** Each node's memory as the runs saw it, against memory_gb (learn-node-memory.ts). */
  memory: MemoryFinding[];
}

/** Three significant digits: what the suggestion writes into fleet.yaml. */
function toSuggestedValue(value: number): number {
  return Number(value.toPrecision(3));
}

export function learnFleet({
  uploads,
  builds,
  nodes,
  memory = [],
}: {
  uploads: readonly UploadObservation[];
  builds: readonly BuildObservation[];
  /** Node memory the runs' data.json recorded (`nodes[].usage.memoryBytes`). */
  memory?: readonly MemoryObservation[];
  /** The fleet as fleet.yaml configures it now. */
  nodes: readonly FleetNodeSetting[];
}): FleetLearning {
  const configured = new Map(nodes.map((node) => [node.name, node]));
  const links = measureUploadLinks(uploads).map((link): LinkFinding => {
    const configuredMbps = configured.get(link.node)?.linkMbps;
    const verdict =
      configuredMbps === undefined
        ? { suggest: false, why: 'not in fleet.yaml' }
        : judgeLink(link.fit, configuredMbps);
    const suggestedMbps =
      verdict.suggest && link.fit.rateMBps !== undefined ? toSuggestedValue(link.fit.rateMBps) : undefined;
    return { ...link, configuredMbps, verdict, suggestedMbps };
  });
  const fit = fitNodeSpeeds({ builds, configured: new Map(nodes.map((node) => [node.name, node.speed])) });
  const speeds = fit.nodes.map((estimate): SpeedFinding => {
    const configuredSpeed = configured.get(estimate.node)?.speed;
    if (estimate.status !== 'fitted')
      return { ...estimate, configuredSpeed, verdict: undefined, suggestedSpeed: undefined };
    const verdict =
      configuredSpeed === undefined
        ? { suggest: false, why: 'not in fleet.yaml' }
        : judgeChange({ measured: estimate.speed, configured: configuredSpeed, logSe: estimate.logSe });
    const suggestedSpeed = verdict.suggest ? toSuggestedValue(estimate.speed) : undefined;
    return { ...estimate, configuredSpeed, verdict, suggestedSpeed };
  });
  const measured = new Set(links.map((link) => link.node));
  return {
    links,
    unmeasuredLinks: nodes.map((node) => node.name).filter((name) => !measured.has(name)),
    speeds,
    residualSigma: fit.residualSigma,
    memory: learnNodeMemory({ observations: memory, nodes }),
  };
}

/** A change to one node's setting in fleet.yaml. */
export interface FleetEdit {
  node: string;
  key: 'link_mbps' | 'speed' | 'memory_gb';
  value: number;
}

export function toFleetEdits(learning: FleetLearning): FleetEdit[] {
  return [
    ...learning.links.flatMap((link): FleetEdit[] =>
      link.suggestedMbps === undefined
        ? []
        : [{ node: link.node, key: 'link_mbps', value: link.suggestedMbps }],
    ),
    ...learning.speeds.flatMap((speed): FleetEdit[] =>
      speed.suggestedSpeed === undefined
        ? []
        : [{ node: speed.node, key: 'speed', value: speed.suggestedSpeed }],
    ),
    ...learning.memory.flatMap((memory): FleetEdit[] =>
      memory.suggestedGb === undefined
        ? []
        : [{ node: memory.node, key: 'memory_gb', value: memory.suggestedGb }],
    ),
  ];
}
