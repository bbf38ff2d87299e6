// Debian's prometheus on loopback: a throwaway config scraping the given targets every second, its TSDB in a
// temp dir (`--storage.tsdb.path`), stopped and removed afterwards (or by the exit hooks if a test dies).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { findFreePort } from './free-port.js';
import { createPortProbe, startDaemon } from './process.js';
import { createTempDir } from './temp-dir.js';

export interface StartPrometheusOptions {
  /** `host:port` targets of the `node` job (node_exporter's `instance` label is exactly this). */
  targets: readonly string[];
  host?: string;
  port?: number;
  /** Default 1000. */
  scrapeIntervalMs?: number;
  /** The scrape job's name (default `node`). */
  job?: string;
  /** Rule files to load (`rule_files:`), evaluated every scrape interval. */
  ruleFiles?: readonly string[];
}

export interface RunningPrometheus {
  /** `http://HOST:PORT` (no trailing slash). */
  url: string;
  logPath: string;
  stop: () => Promise<void>;
}

const prometheusBinary = '/usr/bin/prometheus';

function buildPrometheusConfig(options: {
  targets: readonly string[];
  scrapeIntervalMs: number;
  job: string;
  ruleFiles: readonly string[];
}): string {
  const interval = `${options.scrapeIntervalMs}ms`;
  return [
    'global:',
    `  scrape_interval: ${interval}`,
    `  scrape_timeout: ${interval}`,
    `  evaluation_interval: ${interval}`,
    ...(options.ruleFiles.length === 0
      ? []
      : ['rule_files:', ...options.ruleFiles.map((file) => `  - ${JSON.stringify(file)}`)]),
    'scrape_configs:',
    `  - job_name: ${JSON.stringify(options.job)}`,
    '    static_configs:',
    `      - targets: [${options.targets.map((target) => JSON.stringify(target)).join(', ')}]`,
    '',
  ].join('\n');
}

export async function startPrometheus(options: StartPrometheusOptions): Promise<RunningPrometheus> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? (await findFreePort(host));
  const dir = createTempDir('prometheus');
  const configPath = path.join(dir.path, 'prometheus.yml');
  writeFileSync(
    configPath,
    buildPrometheusConfig({
      targets: options.targets,
      scrapeIntervalMs: options.scrapeIntervalMs ?? 1000,
      job: options.job ?? 'node',
      ruleFiles: options.ruleFiles ?? [],
    }),
  );
  const logPath = path.join(dir.path, 'prometheus.log');
  const daemon = await startDaemon({
    name: 'prometheus',
    command: prometheusBinary,
    args: [
      `--config.file=${configPath}`,
      `--storage.tsdb.path=${path.join(dir.path, 'data')}`,
      `--web.listen-address=${host}:${port}`,
      '--log.level=warn',
    ],
    logPath,
    isReady: createPortProbe({ port }),
  }).catch((error: unknown) => {
    dir.remove();
    throw error;
  });
  return {
    url: `http://${host}:${port}`,
    logPath,
    stop: async () => {
      try {
        await daemon.stop();
      } finally {
        dir.remove();
      }
    },
  };
}
