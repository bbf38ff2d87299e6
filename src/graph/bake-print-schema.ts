import { z } from 'zod';

// `docker buildx bake --print` JSON. Only the keys we use are checked; bake has many more.
// Composable attributes (cache-to, output, …) print as objects since buildx 0.19 and as CSV strings before.

const Composable = z.union([z.string(), z.record(z.string(), z.string())]);

const BakeTargetSchema = z.looseObject({
  context: z.string().optional(),
  dockerfile: z.string().optional(),
  contexts: z.record(z.string(), z.string()).optional(),
  args: z.record(z.string(), z.string().nullable()).optional(),
  tags: z.array(z.string()).optional(),
  'cache-from': z.array(Composable).optional(),
  'cache-to': z.array(Composable).optional(),
  output: z.array(Composable).optional(),
});

/** @internal */
export const BakePrintSchema = z.looseObject({
  group: z
    .record(z.string(), z.looseObject({ targets: z.array(z.string()), description: z.string().optional() }))
    .optional(),
  target: z.record(z.string(), BakeTargetSchema),
});

export type BakePrint = z.output<typeof BakePrintSchema>;
export type BakeTarget = z.output<typeof BakeTargetSchema>;

/** What to do about a print that does not parse. */
export const BAKE_PRINT_FIX = 'save the output of `docker buildx bake --print`';

/**
 * The one reader of a bake print's text (a saved print, or what `bake --print` wrote): the print, or why not —
 * `notJson` (the parser's message) or the schema's `issues` with the raw value (for located messages). The plan
 * inputs and `contracts` each say it in their own form. Pure.
 */
export function parseBakePrint(
  text: string,
): { print: BakePrint } | { notJson: string } | { issues: z.core.$ZodIssue[]; raw: unknown } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (cause) {
    return { notJson: cause instanceof Error ? cause.message : String(cause) };
  }
  const parsed = BakePrintSchema.safeParse(raw);
  return parsed.success ? { print: parsed.data } : { issues: parsed.error.issues, raw };
}

/** Parse one composable attribute entry in either form into a flat map. */
export function parseComposable(entry: string | Record<string, string>): Record<string, string> {
  if (typeof entry !== 'string') return entry;
  if (!entry.includes('=')) return { type: 'registry', ref: entry };
  const out: Record<string, string> = {};
  for (const part of splitCsv(entry)) {
    const eq = part.indexOf('=');
    if (eq > 0) out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return out;
}

function splitCsv(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (char === ',' && !quoted) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}

/** In-run dependencies of a target: its `target:NAME` contexts. */
export function listTargetLinks(target: BakeTarget): string[] {
  return Object.values(target.contexts ?? {})
    .filter((value) => value.startsWith('target:'))
    .map((value) => value.slice('target:'.length))
    .sort();
}
