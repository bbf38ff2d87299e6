import { z } from 'zod';

// A published site's manifest (.rocm-perf-manifest.json): what `publish` uploaded, path → SHA-256, so the next push
// uploads only what changed and deletes what went away (publish/build-site.ts writes it, push-site.ts reads the
// remote one).

const SiteManifestSchema = z.strictObject({
  version: z.literal(1),
  /** Site path → SHA-256 of its bytes. */
  files: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
});
export type SiteManifest = z.output<typeof SiteManifestSchema>;

/**
 * The one reader of a site's manifest (the published site's own record of what it holds): the manifest, or
 * undefined when the text is not one (absent, damaged, another version), so a push uploads everything again. Pure.
 */
export function parseSiteManifest(text: string): SiteManifest | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = SiteManifestSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}
