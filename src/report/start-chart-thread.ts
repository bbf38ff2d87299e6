import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../shared/start-worker-thread.js';
import type { DataFile } from '../artifacts/index.js';
import { InternalError } from '../shared/errors.js';
import { ChartThreadReplySchema, type ChartThreadRequest } from './chart-thread-protocol.js';
import type { ReportCharts } from './render-chart-svg.js';

// `report` draws its two charts (ECharts, server-side SVG) on a thread of its own: loading ECharts and a first
// drawing are about a fifth of a report's time, and the report's own thread has the run's misses to explain
// meanwhile (docs/startup.md). The thread is started first, so ECharts loads while the run is read. A thread that
// cannot start or fails leaves the drawing to this thread, with the same code: the report never depends on it.

export interface ChartThread {
  /** The charts of a model: drawn on the thread, or here when the thread failed. */
  render(model: DataFile): Promise<ReportCharts>;
  /** How many models were drawn on the thread and how many here (the thread had failed or ended). */
  counts(): { onThread: number; here: number };
  close(): Promise<void>;
}

/** Draws here: the fallback, and what the thread runs. */
async function renderHere(model: DataFile): Promise<ReportCharts> {
  const { renderReportCharts } = await import('./render-chart-svg.js');
  return renderReportCharts(model);
}

export function startChartThread(): ChartThread {
  let worker: Worker | undefined;
  let failed: Error | undefined;
  const pending = new Map<number, { resolve: (charts: ReportCharts) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  const counts = { onThread: 0, here: 0 };
  const drawHere = (model: DataFile) => {
    counts.here += 1;
    return renderHere(model);
  };
  const failAll = (error: Error) => {
    failed ??= error;
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  try {
    // Not unref'd: the report waits on its answer. close() ends it.
    worker = startWorkerThread(import.meta.url, 'chart-thread-worker');
    worker.on('message', (raw: unknown) => {
      const reply = ChartThreadReplySchema.safeParse(raw);
      if (!reply.success) return failAll(new InternalError(`chart thread sent ${JSON.stringify(raw)}`));
      const waiting = pending.get(reply.data.id);
      pending.delete(reply.data.id);
      if ('error' in reply.data) waiting?.reject(new InternalError(`chart thread: ${reply.data.error}`));
      else waiting?.resolve({ timeline: reply.data.timeline, targets: reply.data.targets });
    });
    worker.on('error', failAll);
    worker.on('exit', (code) => failAll(new InternalError(`chart thread exited ${code}`)));
  } catch (error) {
    failed = error as Error;
  }
  return {
    async render(model) {
      if (!worker || failed) return drawHere(model);
      const id = nextId++;
      const request: ChartThreadRequest = { id, model };
      try {
        const charts = await new Promise<ReportCharts>((resolve, reject) => {
          pending.set(id, { resolve, reject });
          worker.postMessage(request);
        });
        counts.onThread += 1;
        return charts;
      } catch {
        return drawHere(model);
      }
    },
    counts: () => ({ ...counts }),
    async close() {
      failAll(new InternalError('chart thread closed'));
      await worker?.terminate();
    },
  };
}
