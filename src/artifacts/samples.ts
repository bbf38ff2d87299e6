import { z } from 'zod';

// samples.jsonl: one JSON line per node per node_exporter scrape, written by the sampler and read by the report.

export const SAMPLES_VERSION = 1;

const SampleOkSchema = z.strictObject({
  version: z.literal(SAMPLES_VERSION),
  node: z.string(),
  tsMs: z.number(),
  ok: z.literal(true),
  /** Null on the first scrape of a node (rates need two scrapes) or after a counter reset. */
  cpuBusyPct: z.number().nullable(),
  memUsedPct: z.number().nullable(),
  diskReadBps: z.number().nullable(),
  diskWriteBps: z.number().nullable(),
  netRxBps: z.number().nullable(),
  netTxBps: z.number().nullable(),
  load1: z.number().nullable(),
  /** node_memory_MemTotal_bytes (absent in samples written before it was kept): the node's memory for step usage. */
  memTotalBytes: z.number().positive().optional(),
});

const SampleGapSchema = z.strictObject({
  version: z.literal(SAMPLES_VERSION),
  node: z.string(),
  tsMs: z.number(),
  ok: z.literal(false),
  error: z.string(),
});

export const SampleSchema = z.discriminatedUnion('ok', [SampleOkSchema, SampleGapSchema]);
export type Sample = z.infer<typeof SampleSchema>;
