// The public API of collect/: parsers, rate computation, the node_exporter sampler and the trace parser.
export { parseMetrics } from './node-exporter/parse-metrics.js';
export type { MetricFamily, MetricSample, MetricType, ParsedMetrics } from './node-exporter/parse-metrics.js';
export { parseGoFloat } from './node-exporter/parse-sample-line.js';
export { computeSample } from './node-exporter/compute-rates.js';
export type { ComputeSampleOptions, MetricFamilies, ScrapeSnapshot } from './node-exporter/compute-rates.js';
export { createSampler, sampleNodeOnce } from './node-exporter/sampler.js';
export type { CreateSamplerOptions, Sampler, SamplerNode } from './node-exporter/sampler.js';
export { fetchMetricsText } from './node-exporter/fetch-metrics.js';
export type { FetchMetrics, FetchMetricsOptions } from './node-exporter/fetch-metrics.js';
export { createSamplesWriter, toSampleLine } from './node-exporter/write-samples.js';
export type { SamplesWriter } from './node-exporter/write-samples.js';
export { createSampleLineParser } from './node-exporter/create-sample-line-parser.js';
export { createSamplesTail, readSamples } from './node-exporter/read-samples.js';
export type { SamplesRead, SamplesTail } from './node-exporter/read-samples.js';
export * from './types.js';
export { parseBuildkitTrace } from './buildkit/parse-trace.js';
export { parseStatusSteps } from './buildkit/parse-status-steps.js';
export type { StatusStepCounts } from './buildkit/parse-status-steps.js';
export type { ParseBuildkitTraceOptions, ParsedBuildkitTrace } from './buildkit/parse-trace.js';
// Logs: sccache (nginx WebDAV), registry (Zot, docker-registry), windows and incremental tails, artifacts.
export { readSccacheLog } from './log-reader/read-sccache-log.js';
export type { ReadSccacheLogOptions, ReadSccacheLogResult } from './log-reader/read-sccache-log.js';
export { readRegistryLog } from './log-reader/read-registry-log.js';
export type { ReadRegistryLogOptions, ReadRegistryLogResult } from './log-reader/read-registry-log.js';
export { createLogTail } from './log-reader/create-log-tail.js';
export type { LogTail, LogTailOptions, LogTailRead } from './log-reader/create-log-tail.js';
export { createSccacheParser, sccacheLogFormatName } from './logs/create-shipped-sccache-parser.js';
export type { SccacheParserOptions } from './logs/create-shipped-sccache-parser.js';
export { createRegistryLineParser, defaultCachePatterns } from './logs/create-registry-line-parser.js';
export type { RegistryLineParserOptions, RegistryLogFormat } from './logs/create-registry-line-parser.js';
export type { LineOutcome, LogLineParser } from './logs/line-outcome.js';
export { parseLogFormat } from './logs/parse-log-format.js';
export type { LogFormatField, LogFormatSpec } from './logs/parse-log-format.js';
export { sliceWindow } from './logs/slice-window.js';
export {
  addSccacheRecord,
  addToSccacheSummary,
  createSccacheSummary,
  createSccacheTotals,
  isSccacheWrite,
  summarizeSccache,
} from './logs/summarize-sccache.js';
export type { SccacheSummary, SccacheTotals, SummarizeSccacheOptions } from './logs/summarize-sccache.js';
export {
  addToRegistrySummary,
  createRegistrySummary,
  isRegistryWrite,
  summarizeRegistry,
} from './logs/summarize-registry.js';
export type { RegistrySplit, RegistrySummary, RegistryWriteTotals } from './logs/summarize-registry.js';
export { fetchBlobSizes } from './fetch-blob-sizes.js';
export type { FetchBlobSizesOptions, FetchBlobSizesResult } from './fetch-blob-sizes.js';
export { listArtifacts, readArtifacts, writeArtifacts } from './artifacts.js';
export type { ListArtifactsOptions } from './artifacts.js';
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
export type { ClockOffset, ClockProbe } from './clocks/estimate-clock-offset.js';
export { estimateBuilderClocks, shiftTrace, toBuildWindows } from './clocks/estimate-builder-clocks.js';
export type { BuildWindow, EstimateBuilderClocksOptions } from './clocks/estimate-builder-clocks.js';
// Prometheus as the sample source (fleet.yaml `samples.prometheus`).
export { buildSamplesQuery, SAMPLE_FIGURES } from './prometheus/build-samples-query.js';
export type { SampleFigure } from './prometheus/build-samples-query.js';
export { parsePrometheusResponse } from './prometheus/parse-prometheus-response.js';
export type { FigurePoints } from './prometheus/parse-prometheus-response.js';
export { toPrometheusSamples, toRangeSteps } from './prometheus/to-prometheus-samples.js';
export type { PrometheusNode } from './prometheus/to-prometheus-samples.js';
export {
  fetchKnownInstances,
  fetchSamplesPoints,
  fetchScrapeIntervals,
} from './prometheus/fetch-prometheus.js';
export { parsePrometheusDuration, parseScrapeIntervals } from './prometheus/parse-scrape-intervals.js';
export type { FetchSamplesPoints } from './prometheus/fetch-prometheus.js';
export { createPrometheusSampler, writeSamplesFile } from './prometheus/prometheus-sampler.js';
export type { CreatePrometheusSamplerOptions, PrometheusSampler } from './prometheus/prometheus-sampler.js';
