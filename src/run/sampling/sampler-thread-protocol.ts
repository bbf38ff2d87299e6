import { z } from 'zod';
import { SampleSchema } from '../../artifacts/index.js';

// Messages between the harness and its sampler thread (sample-on-thread.ts, sampler-thread-worker.ts).

export const SamplerThreadInputSchema = z.strictObject({
  nodes: z.array(z.strictObject({ name: z.string(), url: z.string() })),
  sampleIntervalMs: z.number().positive(),
  timeoutMs: z.number().positive().optional(),
});
export type SamplerThreadInput = z.infer<typeof SamplerThreadInputSchema>;

/** Thread → harness: each sample as it is taken, then one `stopped` after a `stop` request. */
export const SamplerThreadMessageSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('sample'), sample: SampleSchema }),
  z.strictObject({ kind: z.literal('stopped'), error: z.string().optional() }),
]);
export type SamplerThreadMessage = z.infer<typeof SamplerThreadMessageSchema>;

/** Harness → thread. */
export type SamplerThreadRequest = { kind: 'stop' };
