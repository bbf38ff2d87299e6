import { z } from 'zod';

// registry-sizes.json: the sizes of the blobs and manifests a run wrote whose registry log does not say them
// (CNCF Distribution logs no request size), asked of the registry by HEAD when the harness slices the log, so the
// report stays offline. Written by run/cache-logs/write-registry-sizes.ts; read by report/read-run-dir.ts.

export const REGISTRY_SIZES_VERSION = 1;

export const RegistrySizesFileSchema = z.strictObject({
  version: z.literal(REGISTRY_SIZES_VERSION),
  registryUrl: z.string().describe('The registry the sizes were asked of (fleet.yaml registry.url).'),
  fetchedAtMs: z.number().describe('When the HEAD requests were sent, epoch ms.'),
  sizes: z
    .record(z.string(), z.number().int().nonnegative())
    .describe('`<repository>@<digest or tag>` → the Content-Length the registry answered a HEAD with.'),
  failures: z
    .array(z.strictObject({ url: z.string(), error: z.string() }))
    .describe('HEADs that gave no size (those writes stay without a size in the report).'),
});
export type RegistrySizesFile = z.infer<typeof RegistrySizesFileSchema>;

/** The key of one blob or manifest in `sizes`. */
export function toRegistrySizeKey(repository: string, reference: string): string {
  return `${repository}@${reference}`;
}
