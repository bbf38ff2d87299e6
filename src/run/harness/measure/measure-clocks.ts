import {
  describeClockProblems,
  fetchMetricsText,
  findNodeTimeMs,
  parseDateSeconds,
  toClockOffset,
  type ClockOffset,
  type FetchMetrics,
} from '../../../collect/index.js';
import type { ClockReading } from '../../../artifacts/index.js';
import type { SshTarget } from '../../../config/index.js';
import type { Clock } from '../../../shared/clock.js';
import type { Logger } from '../../../shared/logger.js';
import { toLogSources } from '../../cache-logs/index.js';
import type { ConnectRemoteHost } from '../../executors/index.js';
import type { RunContext } from '../context/index.js';
import type { Progress } from '../progress/index.js';
import type { RunFileWriter } from '../record/index.js';
import { errorMessage } from '../../../shared/error-message.js';

// Reads every node's and log host's clock against this workstation's, just before and just after the measured run:
// nodes through node_exporter's node_time_seconds, log hosts through `date` over ssh. Each host is read three times
// and the reading with the shortest round trip kept (its midpoint is the tightest). A failed reading is recorded with
// its error; it never stops the run.

interface MeasureClocksOptions {
  phase: ClockReading['phase'];
  nodes: readonly { name: string; url: string }[];
  logHosts: readonly SshTarget[];
  connect: ConnectRemoteHost;
  clock: Clock;
  fetchMetrics?: FetchMetrics;
}

const TRIES = 3;
const TIMEOUT_MS = 10_000;

async function pickTightest(read: () => Promise<{ sentMs: number; receivedMs: number; remoteMs: number }>) {
  let best: ClockOffset | undefined;
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    const offset = toClockOffset(await read());
    if (best === undefined || offset.uncertaintyMs < best.uncertaintyMs) best = offset;
  }
  return best as ClockOffset;
}

async function measureNode(
  node: { name: string; url: string },
  { clock, fetchMetrics = fetchMetricsText, phase }: MeasureClocksOptions,
): Promise<ClockReading> {
  const reading = { host: node.name, role: 'node', source: 'node_time_seconds', phase } as const;
  try {
    const offset = await pickTightest(async () => {
      const sentMs = clock.nowMs();
      const text = await fetchMetrics(node.url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
      const receivedMs = clock.nowMs();
      const remoteMs = findNodeTimeMs(text);
      if (remoteMs === undefined)
        throw new Error(
          `${node.url} has no node_time_seconds; enable node_exporter's time collector (--collector.time)`,
        );
      return { sentMs, receivedMs, remoteMs };
    });
    return { ...reading, ...offset };
  } catch (error) {
    return { ...reading, offsetMs: null, uncertaintyMs: null, error: errorMessage(error) };
  }
}

async function measureLogHost(
  ssh: SshTarget,
  { clock, connect, phase }: MeasureClocksOptions,
): Promise<ClockReading> {
  let label = `${ssh.user ? `${ssh.user}@` : ''}${ssh.host}:${ssh.port ?? 22}`;
  const reading = { role: 'log host', source: 'ssh date', phase } as const;
  try {
    const host = await connect(ssh, { timeoutMs: TIMEOUT_MS });
    label = host.label;
    try {
      const offset = await pickTightest(async () => {
        const sentMs = clock.nowMs();
        const result = await host.run('date +%s.%N', { timeoutMs: TIMEOUT_MS });
        const receivedMs = clock.nowMs();
        const text = result.stdout.toString('utf8');
        const remoteMs = parseDateSeconds(text);
        if (result.exitCode !== 0 || remoteMs === undefined)
          throw new Error(
            `\`date +%s.%N\` answered ${JSON.stringify(text.trim().slice(0, 40))} (exit ${result.exitCode}); the log host needs GNU date`,
          );
        return { sentMs, receivedMs, remoteMs };
      });
      return { host: label, ...reading, ...offset };
    } finally {
      host.close();
    }
  } catch (error) {
    return { host: label, ...reading, offsetMs: null, uncertaintyMs: null, error: errorMessage(error) };
  }
}

/** One reading per node and per distinct log host, all concurrently. */
async function measureClocks(options: MeasureClocksOptions): Promise<ClockReading[]> {
  const hosts = new Map(
    options.logHosts.map((ssh) => [`${ssh.user ?? ''}@${ssh.host}:${ssh.port ?? 22}`, ssh]),
  );
  return Promise.all([
    ...options.nodes.map((node) => measureNode(node, options)),
    ...[...hosts.values()].map((ssh) => measureLogHost(ssh, options)),
  ]);
}

export interface RecordClocksOptions {
  phase: ClockReading['phase'];
  context: RunContext;
  connect: ConnectRemoteHost;
  clock: Clock;
  fetchMetrics: FetchMetrics;
  logger: Logger;
  progress: Progress;
  runFile: RunFileWriter;
}

/** Reads the nodes' and log hosts' clocks; records them in run.json and says what is off. */
export async function recordClocks(options: RecordClocksOptions): Promise<void> {
  const { phase, context, logger, progress, runFile } = options;
  const readings = await measureClocks({
    phase,
    nodes: context.config.nodes.map((node) => ({ name: node.name, url: node.nodeExporterUrl })),
    logHosts: toLogSources(context.config).map((source) => source.ssh),
    connect: options.connect,
    clock: options.clock,
    fetchMetrics: options.fetchMetrics,
  });
  const earlier = runFile.get().clocks ?? [];
  await runFile.update((run) => void (run.clocks = [...earlier, ...readings]));
  logger.info({ phase, readings }, 'clocks measured');
  // After the run, only what is new: the after-readings' own problems and clocks that moved during the run.
  const said = new Set(describeClockProblems(earlier));
  for (const problem of describeClockProblems([...earlier, ...readings]).filter((p) => !said.has(p))) {
    logger.warn({ phase }, problem);
    progress.note(`warning: ${problem}`);
  }
}
