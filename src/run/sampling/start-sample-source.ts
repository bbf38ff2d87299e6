import type { FileDigestWriter } from '../../shared/file-digests.js';
import {
  writeSamplesFile,
  type CreatePrometheusSamplerOptions,
  type CreateSamplerOptions,
  type PrometheusSampler,
  type Sampler,
} from '../../collect/index.js';
import type { Sample } from '../../artifacts/index.js';
import type { Clock } from '../../shared/clock.js';
import type { Logger } from '../../shared/logger.js';
import { errorMessage } from '../../shared/error-message.js';

// The measured run's sample source: the node_exporter scrape sampler, or Prometheus when fleet.yaml names one
// (`samples.prometheus`).

export interface SampleSource {
  stop(): Promise<void>;
  /** After stop and the writer's close: Prometheus' window replaces the live lines. */
  finish(samplesPath: string, digest?: FileDigestWriter): Promise<void>;
}

export interface StartSampleSourceOptions {
  nodes: readonly { name: string; nodeExporterUrl: string; prometheusInstance: string }[];
  /** Undefined: scrape each node's node_exporter. */
  prometheusUrl: string | undefined;
  sampleIntervalMs: number;
  onSample: (sample: Sample) => void;
  createSampler: (options: CreateSamplerOptions) => Sampler;
  createPrometheusSampler: (options: CreatePrometheusSamplerOptions) => PrometheusSampler;
  clock: Clock;
  logger: Logger;
  /** A warning for run.json: the window could not be fetched, the live lines stay. */
  onWarning: (warning: string) => Promise<void>;
}

export function startSampleSource(options: StartSampleSourceOptions): SampleSource {
  const { nodes, prometheusUrl, sampleIntervalMs, onSample } = options;
  if (prometheusUrl === undefined) {
    const sampler = options.createSampler({
      nodes: nodes.map((node) => ({ name: node.name, url: node.nodeExporterUrl })),
      sampleIntervalMs,
      onSample,
    });
    sampler.start();
    return { stop: () => sampler.stop(), finish: () => Promise.resolve() };
  }
  const sampler = options.createPrometheusSampler({
    prometheusUrl,
    nodes: nodes.map((node) => ({ name: node.name, instance: node.prometheusInstance })),
    sampleIntervalMs,
    onSample,
  });
  sampler.start();
  return {
    stop: () => sampler.stop(),
    async finish(samplesPath, digest) {
      try {
        await writeSamplesFile(samplesPath, await sampler.fetchWindow(options.clock.nowMs()), digest);
        options.logger.info({ prometheusUrl }, 'samples.jsonl rewritten from query_range');
      } catch (error) {
        const warning = `samples.jsonl keeps the live instant-query lines: the query_range over the run at ${prometheusUrl} failed: ${errorMessage(error)}`;
        options.logger.warn({ err: error }, warning);
        await options.onWarning(warning);
      }
    },
  };
}
