import { Worker, type WorkerOptions } from 'node:worker_threads';

// The one way a thread of ours is started: `name`.js beside the caller in dist/ (plain JS), or `name`.ts beside it
// in src/ under tsx and vitest. A thread does not inherit the `--import tsx` hooks, so from source it registers them
// itself before importing the worker.

/** A worker thread running `name` beside `callerUrl` (the caller's import.meta.url). */
export function startWorkerThread(callerUrl: string, name: string, options: WorkerOptions = {}): Worker {
  if (!callerUrl.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, callerUrl), options);
  const source = new URL(`./${name}.ts`, callerUrl).href;
  return new Worker(
    `import('tsx/esm/api').then((api) => api.register()).then(() => import(${JSON.stringify(source)}))`,
    { ...options, eval: true },
  );
}
