// The public API of collect/: parsers, rate computation, the node_exporter sampler and the trace parser.
export { createSampler } from './node-exporter/sampler.js';
export type { CreateSamplerOptions, Sampler } from './node-exporter/sampler.js';
export { fetchMetricsText } from './node-exporter/fetch-metrics.js';
export type { FetchMetrics } from './node-exporter/fetch-metrics.js';
export { createSamplesWriter } from './node-exporter/write-samples.js';
export { createSamplesTail, readSamples } from './node-exporter/read-samples.js';
export type { SamplesTail } from './node-exporter/read-samples.js';
export * from './types.js';
export { parseBuildkitTrace, type TraceExtent } from './buildkit/parse-trace.js';
export { parseStatusSteps } from './buildkit/parse-status-steps.js';
// Logs: sccache (nginx WebDAV), registry (Zot, docker-registry), windows and incremental tails, artifacts.
export { readSccacheLog } from './log-reader/read-sccache-log.js';
export { readRegistryLog } from './log-reader/read-registry-log.js';
export { readRegistrySummary } from './log-reader/read-registry-log-on-thread.js';
export { createLogTail } from './log-reader/create-log-tail.js';
export type { LogTail } from './log-reader/create-log-tail.js';
export { createSccacheParser } from './logs/create-shipped-sccache-parser.js';
export { createRegistryLineParser } from './logs/create-registry-line-parser.js';
export { addToSccacheSummary, createSccacheSummary } from './logs/summarize-sccache.js';
export type { SccacheSummary, SccacheTotals } from './logs/summarize-sccache.js';
export { addToRegistrySummary, createRegistrySummary, summarizeRegistry } from './logs/summarize-registry.js';
export type { RegistrySummary, RegistryWriteTotals } from './logs/summarize-registry.js';
export { fetchBlobSizes } from './fetch-blob-sizes.js';
export { writeArtifacts } from './write-artifacts.js';
export { parseJsonObject } from './logs/json-fields.js';
export {
  averageReadings,
  CLOCK_WARNING_MS,
  describeClockProblems,
  describeOffset,
  findNodeTimeMs,
  parseDateSeconds,
  toClockOffset,
} from './clocks/estimate-clock-offset.js';
export type { ClockOffset } from './clocks/estimate-clock-offset.js';
export { estimateBuilderClocks, shiftTrace, toBuildWindows } from './clocks/estimate-builder-clocks.js';
// Prometheus as the sample source (fleet.yaml `samples.prometheus`).
export { fetchKnownInstances, fetchScrapeIntervals } from './prometheus/fetch-prometheus.js';
export { createPrometheusSampler, writeSamplesFile } from './prometheus/prometheus-sampler.js';
export type { CreatePrometheusSamplerOptions, PrometheusSampler } from './prometheus/prometheus-sampler.js';
export {
  type CacheDebugDb,
  type CacheDebugRecord,
  parseCacheDebug,
  toCacheDebugFileList,
} from './buildkit/parse-cache-debug.js';
export { type ProvenanceUsage, parseProvenanceUsage } from './buildkit/parse-provenance-usage.js';
export { type StatusVertex, parseStatusVertices, toRunCommand } from './buildkit/parse-status-vertices.js';
export { matchesStepCommand } from './cgroup/match-step-command.js';
export { type CgroupFigures, parseCgroupCounters } from './cgroup/parse-cgroup-counters.js';
export { parseCgroupDump } from './cgroup/parse-cgroup-dump.js';
export { readStepUsage } from './cgroup/read-step-usage.js';
export { renderCgroupDumpCommand } from './cgroup/render-cgroup-dump-command.js';
