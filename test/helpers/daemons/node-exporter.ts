// Debian's prometheus-node-exporter with a lean collector set, on loopback or inside a network namespace.
import path from 'node:path';
import { findFreePort } from './free-port.js';
import { createPortProbe, startRestartableDaemon } from './process.js';
import { createTempDir } from './temp-dir.js';

export interface StartNodeExporterOptions {
  netns?: string;
  host?: string;
  port?: number;
  /** A /proc of its own (`--path.procfs`); default the host's. */
  procfsPath?: string;
}

export interface RunningNodeExporter {
  url: string;
  logPath: string;
  /** Stops node_exporter for `downMs` (scrapes are refused), then starts it again. */
  outage: (downMs: number) => Promise<void>;
  stop: () => Promise<void>;
}

const nodeExporterBinary = '/usr/bin/prometheus-node-exporter';
const leanCollectors = ['cpu', 'meminfo', 'diskstats', 'netdev', 'loadavg', 'filesystem', 'stat', 'time'];

export async function startNodeExporter(
  options: StartNodeExporterOptions = {},
): Promise<RunningNodeExporter> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? (options.netns === undefined ? await findFreePort(host) : 9100);
  const dir = createTempDir('node-exporter');
  const args = [
    `--web.listen-address=${host}:${port}`,
    '--collector.disable-defaults',
    ...leanCollectors.map((name) => `--collector.${name}`),
    ...(options.procfsPath === undefined ? [] : [`--path.procfs=${options.procfsPath}`]),
  ];
  const logPath = path.join(dir.path, 'node-exporter.log');
  const daemon = await startRestartableDaemon({
    name: 'prometheus-node-exporter',
    command: nodeExporterBinary,
    args,
    netns: options.netns,
    logPath,
    isReady: createPortProbe({ netns: options.netns, port }),
  }).catch((error: unknown) => {
    dir.remove();
    throw error;
  });
  return {
    url: `http://${host}:${port}/metrics`,
    logPath,
    outage: daemon.outage,
    stop: async () => {
      await daemon.stop();
      dir.remove();
    },
  };
}
