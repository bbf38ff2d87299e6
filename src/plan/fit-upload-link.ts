import { estimateLogSigma } from './pool-costs.js';

// A node's upload link as a push sees it (docs/planning.md, "The fleet model learns"): each HTTP request costs a
// fixed latency (round trips, the registry's handling) plus the bytes the link carried while it ran over the link's
// rate, d = latency + load ÷ rate. Both are fitted per node from its requests; the rate counts only when some
// requests were large enough that their bytes, not the latency, set their duration. Pure.

/** One sized upload request (an HTTP PUT/POST/PATCH span of a trace) of one node in one run. */
export interface UploadRequest {
  run: string;
  startMs: number;
  endMs: number;
  bytes: number;
}

/** A request with the bytes its node's link carried while it ran: its own plus its overlapping neighbours' share. */
export interface LinkLoad {
  durationMs: number;
  /** Own bytes + each overlapping request's bytes × the share of that request's span inside this one. */
  loadBytes: number;
}

/**
 * A request shares the link with the node's other requests that overlap it (BuildKit pushes blobs in parallel),
 * so its duration reflects their bytes too: each overlapping request adds its bytes pro-rated by how much of its
 * span lies inside this one (bytes assumed spread evenly over a request's span).
 */
export function toLinkLoads(requests: readonly UploadRequest[]): LinkLoad[] {
  const byRun = new Map<string, UploadRequest[]>();
  for (const request of requests) {
    const list = byRun.get(request.run) ?? [];
    list.push(request);
    byRun.set(request.run, list);
  }
  const loads: LinkLoad[] = [];
  for (const list of byRun.values()) {
    for (const own of list) {
      let loadBytes = own.bytes;
      for (const other of list) {
        if (other === own || other.bytes === 0) continue;
        const overlapMs = Math.min(own.endMs, other.endMs) - Math.max(own.startMs, other.startMs);
        const spanMs = other.endMs - other.startMs;
        if (overlapMs > 0 && spanMs > 0) loadBytes += (other.bytes * overlapMs) / spanMs;
      }
      loads.push({ durationMs: Math.max(0, own.endMs - own.startMs), loadBytes });
    }
  }
  return loads;
}

/** The fewest wire-bound requests whose own rates may move link_mbps (with two, their spread is known). */
export const MIN_WIRE_BOUND_REQUESTS = 2;

/**
 * A request is wire-bound when its load at the fitted rate takes at least this many times the per-request cost
 * (the larger of the latency and the residuals' spread), so at least three quarters of its time is the wire and
 * the latency's noise cannot fake a rate; and at least MIN_WIRE_MS, so a burst the link lets through at once (the
 * box's tbf passes ~20 ms of traffic unshaped) or TCP's slow start is a fifth of it at most.
 */
const WIRE_BOUND_FACTOR = 3;
const MIN_WIRE_MS = 100;

/** Above this many requests the fit takes an evenly spaced sample (in load order): the pairs grow as n². */
const MAX_FITTED_REQUESTS = 1000;

export interface UploadLinkFit {
  requests: number;
  /** The per-request cost in ms: the median of duration − load ÷ rate. */
  latencyMs: number;
  /** How much single requests stray from the fit, ms (1.4826 × the median absolute residual). */
  noiseMs: number;
  /** The fitted link rate in MB/s (10^6 bytes); undefined when duration does not grow with bytes at all. */
  rateMBps: number | undefined;
  /**
   * Requests whose load takes at least 3× the per-request cost and 0.1 s on the wire at the fitted rate (and that
   * took longer than the latency): the rate's evidence.
   */
  wireBound: number;
  /** The largest load of one request, bytes. */
  largestLoadBytes: number;
  /** Robust log-scale spread of the wire-bound requests' own rates, load ÷ (duration − latency); undefined below 2. */
  logSigma: number | undefined;
}

/** Weighted median of the pairwise slopes, each weighted by its bytes difference (Sievers–Scholz), in ms per byte. */
function fitSlopeMsPerByte(loads: readonly LinkLoad[]): number | undefined {
  const slopes: { slope: number; weight: number }[] = [];
  let total = 0;
  for (let i = 0; i < loads.length; i++) {
    for (let j = i + 1; j < loads.length; j++) {
      const dx = loads[j]!.loadBytes - loads[i]!.loadBytes;
      if (dx === 0) continue;
      const weight = Math.abs(dx);
      slopes.push({ slope: (loads[j]!.durationMs - loads[i]!.durationMs) / dx, weight });
      total += weight;
    }
  }
  if (slopes.length === 0) return undefined;
  slopes.sort((a, b) => a.slope - b.slope);
  let cumulative = 0;
  for (const { slope, weight } of slopes) {
    cumulative += weight;
    if (cumulative >= total / 2) return slope;
  }
  return slopes.at(-1)!.slope;
}

function toMedian(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function sampleEvenly(loads: readonly LinkLoad[]): LinkLoad[] {
  if (loads.length <= MAX_FITTED_REQUESTS) return [...loads];
  const sorted = [...loads].sort((a, b) => a.loadBytes - b.loadBytes);
  return Array.from(
    { length: MAX_FITTED_REQUESTS },
    (_, k) => sorted[Math.round((k * (sorted.length - 1)) / (MAX_FITTED_REQUESTS - 1))]!,
  );
}

/** Fits d = latency + load ÷ rate robustly; undefined without requests. */
export function fitUploadLink(loads: readonly LinkLoad[]): UploadLinkFit | undefined {
  if (loads.length === 0) return undefined;
  const fitted = sampleEvenly(loads);
  const slope = fitSlopeMsPerByte(fitted);
  const msPerByte = slope !== undefined && slope > 0 ? slope : 0;
  const latencyMs = toMedian(fitted.map((l) => l.durationMs - msPerByte * l.loadBytes));
  const noiseMs =
    1.4826 * toMedian(fitted.map((l) => Math.abs(l.durationMs - msPerByte * l.loadBytes - latencyMs)));
  const largestLoadBytes = Math.max(...loads.map((l) => l.loadBytes));
  const base = { requests: loads.length, latencyMs, noiseMs, largestLoadBytes };
  if (msPerByte === 0) return { ...base, rateMBps: undefined, wireBound: 0, logSigma: undefined };
  const thresholdMs = Math.max(WIRE_BOUND_FACTOR * Math.max(latencyMs, noiseMs), MIN_WIRE_MS);
  const wire = loads.filter((l) => msPerByte * l.loadBytes >= thresholdMs && l.durationMs > latencyMs);
  const ownRates = wire.map((l) => l.loadBytes / (l.durationMs - latencyMs) / 1000);
  return {
    ...base,
    rateMBps: 1 / msPerByte / 1000,
    wireBound: wire.length,
    largestLoadBytes,
    logSigma: ownRates.length >= 2 ? estimateLogSigma(ownRates) : undefined,
  };
}
