import { z } from 'zod';
import type { StreamStats } from '../../artifacts/index.js';
import type { RegistrySummary } from '../logs/summarize-registry.js';
import type { ReadRegistryLogOptions } from './read-registry-log.js';

// Messages between a report and its registry-log thread (read-registry-log-on-thread.ts, registry-thread-worker.ts).
// Both ends are this program, built together; the reply is still checked against this schema before use, as every
// message that crosses a boundary is.

export interface RegistryThreadRequest {
  options: Omit<ReadRegistryLogOptions, 'keep'>;
}

const count = z.number().int().nonnegative();

const StreamStatsSchema = z.strictObject({
  source: z.string(),
  bytes: count,
  lines: count,
  records: count,
  skipped: count,
  skippedByReason: z.record(z.string(), count),
  rejected: count,
  rejectedExamples: z.array(z.strictObject({ line: count, reason: z.string() })),
}) satisfies z.ZodType<StreamStats>;

const WriteTotalsSchema = z.strictObject({
  blobsWritten: count,
  manifestsWritten: count,
  bytesWritten: count,
  bytesUnknown: count,
  writeDurationMs: z.number().nonnegative(),
  blobsRead: count,
  manifestsRead: count,
  bytesRead: count,
});

const SplitSchema = z.strictObject({ cache: WriteTotalsSchema, image: WriteTotalsSchema });

const RegistrySummarySchema = z.strictObject({
  ...SplitSchema.shape,
  requests: count,
  byNode: z.record(z.string(), SplitSchema),
}) satisfies z.ZodType<RegistrySummary>;

export const RegistryThreadReplySchema = z.union([
  z.strictObject({ stats: StreamStatsSchema, summary: RegistrySummarySchema }),
  z.strictObject({ error: z.string() }),
]);
export type RegistryThreadReply = z.infer<typeof RegistryThreadReplySchema>;
