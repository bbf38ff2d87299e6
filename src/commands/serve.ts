import { startServer } from '../serve/index.js';
import { createLogger } from '../shared/logger.js';
import type { ServeValues } from './flags/index.js';

function exposureLine(url: string, bind: string, root: string): string {
  const everywhere = bind === '0.0.0.0' || bind === '::';
  const where = everywhere
    ? `listening on EVERY interface (${bind}); restrict with --bind 127.0.0.1 or PERF_BIND`
    : `listening on ${bind} only`;
  return `rocm-perf serve: exposes build telemetry of the runs under ${root} (hostnames, CPU and memory figures, step names and RUN commands; no credentials, no registry access), read-only, at ${url} — ${where}`;
}

// `rocm-perf serve`: the live chart on :8090. The first stdout line says what is exposed and where.
export async function runServeCommand(options: ServeValues): Promise<void> {
  const { root, bind, port } = options;
  const running = await startServer({
    root,
    bind,
    port,
    refreshMs: options.refreshSeconds * 1000,
    logger: createLogger({ level: options.logLevel }),
  });
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
