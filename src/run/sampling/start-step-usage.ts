import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { StepUsageSample } from '../../artifacts/index.js';
import type { FleetNode } from '../../config/index.js';
import type { FileDigestWriter } from '../../shared/file-digests.js';
import type { CreateStepUsageSamplerOptions, StepUsageSampler } from './step-usage-sampler.js';

// The measured run's step-usage capture: step-usage.jsonl appended line by line as polls answer, from every node
// that has an ssh link. A node without one is named in a warning (its steps get no cgroup figures).

/** Polled at most this often apart: a step's CPU after its last poll is lost (docs/step-usage.md). */
const MAX_STEP_USAGE_INTERVAL_MS = 1_000;

export interface StepUsageCapture {
  stop(): Promise<void>;
}

export function startStepUsage(options: {
  nodes: readonly FleetNode[];
  path: string;
  /** `--sample-interval-ms`; the cgroups are polled at it, at most MAX_STEP_USAGE_INTERVAL_MS apart. */
  sampleIntervalMs: number;
  createSampler: (options: Omit<CreateStepUsageSamplerOptions, 'connect' | 'clock'>) => StepUsageSampler;
  /** Opens the run's digest of the file, called only when the file is written (a node has ssh). */
  openDigest: () => FileDigestWriter | undefined;
  onWriteError: (error: Error) => void;
  onWarning: (warning: string) => void;
}): StepUsageCapture {
  const withLink = options.nodes.flatMap((node) =>
    node.ssh ? [{ name: node.name, ssh: node.ssh, stepCgroups: node.stepCgroups }] : [],
  );
  const without = options.nodes.filter((node) => !node.ssh).map((node) => node.name);
  if (without.length > 0)
    options.onWarning(
      `step usage is not sampled on ${without.join(', ')}: no \`ssh\` in fleet.yaml (docs/step-usage.md); their RUN steps get BuildKit's own figures only`,
    );
  if (withLink.length === 0) return { stop: () => Promise.resolve() };
  const stream = createWriteStream(options.path, { flags: 'a' });
  const digest = options.openDigest();
  let failed = false;
  stream.on('error', (error) => {
    if (!failed) options.onWriteError(error);
    failed = true;
  });
  const sampler = options.createSampler({
    nodes: withLink,
    intervalMs: Math.min(options.sampleIntervalMs, MAX_STEP_USAGE_INTERVAL_MS),
    onSample: (sample: StepUsageSample) => {
      if (failed) return;
      const line = `${JSON.stringify(sample)}\n`;
      stream.write(line);
      digest?.update(line);
    },
  });
  sampler.start();
  return {
    async stop() {
      try {
        await sampler.stop();
      } finally {
        if (!stream.destroyed) {
          stream.end();
          await once(stream, 'close');
        }
      }
    },
  };
}
