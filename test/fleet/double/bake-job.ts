// The job the host-side `docker buildx bake` hands to the worker it starts inside the builder's namespace.
import * as z from 'zod/mini';
import type { BakeTarget } from './bake-definition.js';

export const BakeJobSchema = z.strictObject({
  version: z.literal(1),
  statePath: z.string(),
  builder: z.string(),
  /** Resolved targets (after overrides and links), by name. */
  targets: z.record(z.string(), z.record(z.string(), z.unknown())),
  requested: z.array(z.string()),
  progress: z.enum(['auto', 'plain', 'tty', 'quiet', 'rawjson']),
  metadataFile: z.optional(z.string()),
  /** argv of the bake command, for the root span's `command` attribute. */
  command: z.string(),
});

export type BakeJob = Omit<z.output<typeof BakeJobSchema>, 'targets'> & {
  targets: Record<string, BakeTarget>;
};
