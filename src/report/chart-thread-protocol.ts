import { z } from 'zod';

// Messages between a report and its chart thread (start-chart-thread.ts, chart-thread-worker.ts).

/** Report → thread: the charts of this model (a DataFile, as structured clone carries it). */
export interface ChartThreadRequest {
  id: number;
  model: unknown;
}

/** Thread → report: the two SVGs, or why they could not be drawn. */
export const ChartThreadReplySchema = z.union([
  z.strictObject({ id: z.number(), timeline: z.string(), targets: z.string() }),
  z.strictObject({ id: z.number(), error: z.string() }),
]);
export type ChartThreadReply = z.infer<typeof ChartThreadReplySchema>;
