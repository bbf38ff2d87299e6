import { setFlagsFromString } from 'node:v8';
import { createIndexProgressPrinter, startServer } from '../serve/index.js';
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
  // serve stays up for days and answers from memory: V8 is told to favour a small heap over speed (it collects the
  // young generation sooner and gives memory back). Over 10,000 runs this holds serve's RSS to about 165 MB where
  // the default grew past 200 MB on garbage it had not yet collected (docs/history.md).
  setFlagsFromString('--optimize-for-size');
  const running = await startServer({
    root,
    bind,
    port,
    refreshMs: options.refreshSeconds * 1000,
    logger: createLogger({ level: options.logLevel }),
    onIndexProgress: createIndexProgressPrinter({ print: (line) => console.log(line) }),
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
