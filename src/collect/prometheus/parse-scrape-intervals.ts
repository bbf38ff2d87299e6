import { z } from 'zod';

// Prometheus' /api/v1/targets answer → each active target's scrape interval by its `instance` label, so preflight
// can tell a sample interval shorter than what Prometheus holds (samples that only repeat the last scrape).

const TargetsResponseSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('success'),
    data: z.object({
      activeTargets: z.array(
        z.object({
          labels: z.record(z.string(), z.string()),
          // Since Prometheus 2.30; older servers leave it out.
          scrapeInterval: z.string().optional(),
        }),
      ),
    }),
  }),
  z.object({ status: z.literal('error'), errorType: z.string(), error: z.string() }),
]);

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A Prometheus duration (`15s`, `1m30s`, `500ms`) in ms; undefined when it is not one. @internal */
export function parsePrometheusDuration(text: string): number | undefined {
  const parts = [...text.matchAll(/(\d+)(ms|s|m|h|d)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== text) return undefined;
  return parts.reduce((sum, part) => sum + Number(part[1]) * (UNIT_MS[part[2] as string] as number), 0);
}

/** instance → the longest scrape interval of its active targets; or the reason the answer is not usable. */
export function parseScrapeIntervals(
  json: unknown,
): { ok: true; intervals: Map<string, number> } | { ok: false; error: string } {
  const parsed = TargetsResponseSchema.safeParse(json);
  if (!parsed.success)
    return {
      ok: false,
      error: `not a /api/v1/targets answer: ${parsed.error.issues[0]?.message ?? 'unknown shape'}`,
    };
  if (parsed.data.status === 'error')
    return { ok: false, error: `${parsed.data.errorType}: ${parsed.data.error}` };
  const intervals = new Map<string, number>();
  for (const target of parsed.data.data.activeTargets) {
    const instance = target.labels.instance;
    const ms =
      target.scrapeInterval === undefined ? undefined : parsePrometheusDuration(target.scrapeInterval);
    if (instance === undefined || ms === undefined) continue;
    intervals.set(instance, Math.max(ms, intervals.get(instance) ?? 0));
  }
  return { ok: true, intervals };
}
