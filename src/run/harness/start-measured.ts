import path from 'node:path';
import { createSamplesWriter } from '../../collect/index.js';
import { createLogCapture, toLogSources, type LogCapture } from '../cache-logs/capture-logs.js';
import { startSampleSource } from '../sampling/start-sample-source.js';
import { startStepUsage } from '../sampling/start-step-usage.js';
import { RUN_DIR_FILES } from '../../artifacts/index.js';
import { createTraceCollector } from './collect-traces.js';
import type { MeasuredResources } from './finalize-run.js';
import type { RunDirGuard } from './guard-run-dir.js';
import type { HarnessEffects } from './harness-effects.js';
import type { RunContext } from './load-run-context.js';
import { recordClocks } from './measure-clocks.js';
import type { Progress } from './progress.js';
import type { RunFileWriter } from './run-file-writer.js';
import type { Logger } from '../../shared/logger.js';
import { errorMessage } from '../../shared/error-message.js';

// The measured run's instruments, started together: clocks before, samples, cache-log capture, trace collection.
// finalizeRun stops and keeps them.

export interface StartMeasuredOptions {
  context: RunContext;
  effects: HarnessEffects;
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
