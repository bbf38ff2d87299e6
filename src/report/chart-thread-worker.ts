import { parentPort } from 'node:worker_threads';
import type { DataFile } from '../artifacts/index.js';
import { errorMessage } from '../shared/error-message.js';
import type { ChartThreadReply, ChartThreadRequest } from './chart-thread-protocol.js';
import { renderReportCharts } from './render-chart-svg.js';
import { warmUpCharts } from './warm-up-charts.js';

// The report's charts on a thread of their own (started by start-chart-thread.ts): ECharts loads and draws here
// while the report's own thread reads the run, explains its cache misses and writes its advice.

const port = parentPort!;
// Before the model comes: a first drawing is the slow one (warm-up-charts.ts). A message waits meanwhile.
warmUpCharts();
port.on('message', (request: ChartThreadRequest) => {
  let reply: ChartThreadReply;
  try {
    reply = { id: request.id, ...renderReportCharts(request.model as DataFile) };
  } catch (error) {
    reply = { id: request.id, error: errorMessage(error) };
  }
  port.postMessage(reply);
});
