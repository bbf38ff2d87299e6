import { startServer } from '../serve/index.js';
import { UsageError } from '../shared/errors.js';
import type { CommonOptions } from './options.js';

export interface ServeCommandOptions extends CommonOptions {
  root: string;
  bind: string;
  port: string;
  refreshSeconds: string;
}

function exposureLine(url: string, bind: string, root: string): string {
  const everywhere = bind === '0.0.0.0' || bind === '::';
  const where = everywhere
    ? `listening on EVERY interface (${bind}); restrict with --bind 127.0.0.1 or PERF_BIND`
    : `listening on ${bind} only`;
  return `rocm-perf serve: exposes build telemetry of the runs under ${root} (hostnames, CPU and memory figures, step names and RUN commands; no credentials, no registry access), read-only, at ${url} — ${where}`;
}

// `rocm-perf serve`: the live chart on :8090. The first stdout line says what is exposed and where.
export async function runServeCommand(options: ServeCommandOptions): Promise<void> {
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port: expected 0–65535, got \`${options.port}\``);
  const refreshMs = Number(options.refreshSeconds) * 1000;
  if (!(refreshMs >= 500))
    throw new UsageError(`--refresh-seconds: expected ≥ 0.5, got \`${options.refreshSeconds}\``);
  const running = await startServer({ root: options.root, bind: options.bind, port, refreshMs });
  console.log(exposureLine(running.url, options.bind, options.root));
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void running.close().then(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
