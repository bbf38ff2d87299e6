import path from 'node:path';
import {
  createSamplesWriter,
  type CreatePrometheusSamplerOptions,
  type CreateSamplerOptions,
  type FetchMetrics,
  type PrometheusSampler,
  type Sampler,
} from '../../../collect/index.js';
import type { Clock } from '../../../shared/clock.js';
import { createLogCapture, toLogSources, type LogCapture } from '../../cache-logs/index.js';
import type { runHistoryTrace, ConnectRemoteHost } from '../../executors/index.js';
import {
  startSampleSource,
  startStepUsage,
  type CreateStepUsageSamplerOptions,
  type StepUsageSampler,
} from '../../sampling/index.js';
import { RUN_DIR_FILES } from '../../../artifacts/index.js';
import { createTraceCollector, type TraceCollector } from './collect-traces.js';
import type { RunDirGuard, RunFileWriter } from '../record/index.js';
import type { RunContext } from '../context/index.js';
import { recordClocks } from './measure-clocks.js';
import type { Progress } from '../progress/index.js';
import type { Logger } from '../../../shared/logger.js';
import { errorMessage } from '../../../shared/error-message.js';

// The measured run's instruments, started together: clocks before, samples, cache-log capture, trace collection.
// finalizeRun stops and keeps them.

/** The effects the instruments use (part of HarnessEffects). */
export interface MeasureEffects {
  clock: Clock;
  fetchTrace: typeof runHistoryTrace;
  connect: ConnectRemoteHost;
  createSampler: (options: CreateSamplerOptions) => Sampler;
  /** With fleet.yaml `samples.prometheus`: live instant queries, then the window by query_range at finalize. */
  createPrometheusSampler: (options: CreatePrometheusSamplerOptions) => PrometheusSampler;
  /** Polls the nodes' step container cgroups over their ssh links (step-usage.jsonl; docs/step-usage.md). */
  createStepUsageSampler: (options: CreateStepUsageSamplerOptions) => StepUsageSampler;
  /** One GET of a node's /metrics (the clock readings take node_time_seconds from it). */
  fetchMetrics: FetchMetrics;
}

/** The instruments started, for finalizeRun to stop and keep. */
export interface MeasuredResources {
  stopSampler: () => Promise<void>;
  logCapture: LogCapture | undefined;
  /** Reads the clocks again after the run and records them in run.json. */
  measureClocksAfter: () => Promise<void>;
  traces: TraceCollector;
}

export interface StartMeasuredOptions {
  context: RunContext;
  effects: MeasureEffects;
  guard: RunDirGuard;
  logger: Logger;
  progress: Progress;
  runFile: RunFileWriter;
  sampleIntervalMs: number;
  logPollIntervalMs: number;
}

export async function startMeasured(options: StartMeasuredOptions): Promise<MeasuredResources> {
  const { context, effects, guard, logger, runFile } = options;
  const { progress } = options;
  const clocks = {
    context,
    connect: effects.connect,
    clock: effects.clock,
    fetchMetrics: effects.fetchMetrics,
    logger,
    progress,
    runFile,
  };
  await recordClocks({ ...clocks, phase: 'before' });
  const samplesPath = path.join(context.runDir, 'samples.jsonl');
  const samplesDigest = context.digests?.open('samples.jsonl');
  const samples = createSamplesWriter(samplesPath, (error) => guard.fail(samplesPath, error), samplesDigest);
  const sampler = startSampleSource({
    nodes: context.config.nodes,
    prometheusUrl: context.config.samples?.prometheusUrl,
    sampleIntervalMs: options.sampleIntervalMs,
    onSample: (sample) => samples.write(sample),
    createSampler: effects.createSampler,
    createPrometheusSampler: effects.createPrometheusSampler,
    clock: effects.clock,
    logger,
    onWarning: (warning) => runFile.update((run) => void run.warnings.push(warning)),
  });
  const stepUsagePath = path.join(context.runDir, RUN_DIR_FILES.stepUsage);
  const stepUsage = startStepUsage({
    nodes: context.config.nodes,
    path: stepUsagePath,
    sampleIntervalMs: options.sampleIntervalMs,
    createSampler: (sampler) =>
      effects.createStepUsageSampler({ ...sampler, connect: effects.connect, clock: effects.clock }),
    openDigest: () => context.digests?.open(RUN_DIR_FILES.stepUsage),
    onWriteError: (error) => guard.fail(stepUsagePath, error),
    onWarning: (warning) => void runFile.update((run) => void run.warnings.push(warning)),
  });
  let logCapture: LogCapture | undefined = createLogCapture({
    sources: toLogSources(context.config),
    runDir: context.runDir,
    connect: effects.connect,
    logger,
    onWriteError: (file, error) => guard.fail(file, error),
    clock: effects.clock,
    digests: context.digests,
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await logCapture.start();
    timer = setInterval(() => void logCapture?.poll(), options.logPollIntervalMs);
  } catch (error) {
    logger.error({ err: error }, 'log capture did not start');
    await runFile.update(
      (run) => void run.warnings.push(`cache log capture did not start: ${errorMessage(error)}`),
    );
    logCapture = undefined;
  }
  const capture = logCapture;
  return {
    stopSampler: async () => {
      if (timer) clearInterval(timer);
      try {
        await sampler.stop();
      } finally {
        await samples.close();
        await stepUsage.stop();
      }
      await sampler.finish(samplesPath, samplesDigest);
    },
    logCapture: capture,
    measureClocksAfter: () => recordClocks({ ...clocks, phase: 'after' }),
    traces: createTraceCollector({
      runDir: context.runDir,
      fetchTrace: effects.fetchTrace,
      buildx: context.config.buildx?.path,
      logger,
      guard,
      digests: context.digests,
    }),
  };
}
