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
export { parseSampleLines } from './node-exporter/parse-sample-lines.js';
export type { ParsedSamples } from './node-exporter/parse-sample-lines.js';
export { readSamples } from './node-exporter/read-samples.js';
export * from './types.js';
export { parseBuildkitTrace } from './buildkit/parse-trace.js';
export type { ParseBuildkitTraceOptions, ParsedBuildkitTrace } from './buildkit/parse-trace.js';
