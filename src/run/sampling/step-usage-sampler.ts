import { createNodeLoops } from '../../shared/create-node-loops.js';
import { STEP_USAGE_VERSION, type StepUsageSample } from '../../artifacts/index.js';
import { parseCgroupDump, renderCgroupDumpCommand } from '../../collect/index.js';
import type { SshTarget } from '../../config/index.js';
import type { Clock } from '../../shared/clock.js';
import { errorMessage } from '../../shared/error-message.js';
import { sleep } from '../../shared/sleep.js';
import type { ConnectRemoteHost, RemoteHost } from '../executors/index.js';

// Polls each node's step container cgroups over its ssh link while the measured run builds (docs/step-usage.md):
// one remote command per poll per node (renderCgroupDumpCommand), each answer one step-usage.jsonl line. Each node
// has its own loop, so a slow link delays nobody; a failed poll is a gap line and the link is opened again next
// tick. stop() ends every loop at once, a poll in flight included (its connection is closed).

interface StepUsageSamplerNode {
  name: string;
  ssh: SshTarget;
  stepCgroups: string;
}

export interface CreateStepUsageSamplerOptions {
  nodes: readonly StepUsageSamplerNode[];
  intervalMs: number;
  connect: ConnectRemoteHost;
  onSample: (sample: StepUsageSample) => void;
  clock: Clock;
}

export interface StepUsageSampler {
  start(): void;
  stop(): Promise<void>;
}

/** A poll may take this long before it is a gap (a loaded node answers slowly; the next tick still comes). */
const pollTimeoutMs = (intervalMs: number) => Math.max(10_000, intervalMs * 5);

async function pollOnce(host: RemoteHost, node: StepUsageSamplerNode, intervalMs: number) {
  const result = await host.run(renderCgroupDumpCommand(node.stepCgroups), {
    timeoutMs: pollTimeoutMs(intervalMs),
  });
  if (result.exitCode !== 0)
    throw new Error(`the cgroup read exited ${result.exitCode}: ${result.stderr.trim().slice(-200)}`);
  return parseCgroupDump(result.stdout.toString('utf8'));
}

async function sampleNodeLoop(
  node: StepUsageSamplerNode,
  options: CreateStepUsageSamplerOptions,
  signal: AbortSignal,
): Promise<void> {
  const { clock, intervalMs } = options;
  let host: RemoteHost | undefined;
  const closeOnAbort = () => host?.close();
  signal.addEventListener('abort', closeOnAbort, { once: true });
  try {
    while (!signal.aborted) {
      const tickMs = clock.nowMs();
      try {
        host ??= await options.connect(node.ssh, { timeoutMs: pollTimeoutMs(intervalMs) });
        const dump = await pollOnce(host, node, intervalMs);
        if (signal.aborted) break;
        options.onSample({
          version: STEP_USAGE_VERSION,
          node: node.name,
          tsMs: clock.nowMs(),
          ok: true,
          ...dump,
        });
      } catch (error) {
        if (signal.aborted) break;
        host?.close();
        host = undefined;
        options.onSample({
          version: STEP_USAGE_VERSION,
          node: node.name,
          tsMs: clock.nowMs(),
          ok: false,
          error: errorMessage(error),
        });
      }
      await sleep(Math.max(0, tickMs + intervalMs - clock.nowMs()), signal);
    }
  } finally {
    signal.removeEventListener('abort', closeOnAbort);
    host?.close();
  }
}

export function createStepUsageSampler(options: CreateStepUsageSamplerOptions): StepUsageSampler {
  return createNodeLoops(options.nodes, (node, signal) => sampleNodeLoop(node, options, signal));
}
