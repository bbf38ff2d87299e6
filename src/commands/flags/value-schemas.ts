import path from 'node:path';
import type { Zod } from './flag-table.js';

// Value schemas several flags share. Flags arrive as strings; these check and convert them.

export const text = (z: Zod) => z.string();
export const optionalText = (z: Zod) => z.string().optional();
/**
 * A directory, made absolute against the working directory here, once (`--root`): every command and the core
 * below it get the same absolute path. A blank value stays blank, for the empty-value check (parse-command-values.ts).
 */
export const absoluteDir = (z: Zod) =>
  z.string().transform((dir) => (dir.trim() === '' ? dir : path.resolve(dir)));
/** A switch (`--json`): commander gives a boolean. */
export const switchValue = (z: Zod) => z.boolean();

/** A number > 0 (`2000`, `1.5`). */
export const positiveNumber = (z: Zod) =>
  z.string().trim().min(1).transform(Number).pipe(z.number().positive());

/** A whole number > 0 (`2000`). */
export const positiveInteger = (z: Zod) =>
  z.string().trim().min(1).transform(Number).pipe(z.number().int().positive());

/** `a,b c` → `['a', 'b', 'c']`; empty → undefined. */
export const nameList = (z: Zod) =>
  z
    .string()
    .optional()
    .transform((text) => {
      const names = text?.split(/[\s,]+/).filter(Boolean) ?? [];
      return names.length === 0 ? undefined : names;
    });

function splitAssignment(raw: string): { node: string; value: string } {
  const at = raw.indexOf('=');
  return at > 0 ? { node: raw.slice(0, at).trim(), value: raw.slice(at + 1) } : { node: '', value: '' };
}

/** Repeated `NODE=NUMBER` → `{ NODE: NUMBER }`. */
export const nodeNumbers = (z: Zod) =>
  z
    .array(
      z
        .string()
        .transform(splitAssignment)
        .pipe(z.strictObject({ node: z.string().min(1), value: positiveNumber(z) })),
    )
    .transform((pairs) => Object.fromEntries(pairs.map(({ node, value }) => [node, value])));

function splitFields(raw: string): Record<string, string> {
  return Object.fromEntries(
    raw.split(',').map((part) => {
      const at = part.indexOf('=');
      return at > 0 ? [part.slice(0, at).trim(), part.slice(at + 1).trim()] : [part.trim(), ''];
    }),
  );
}

/** Repeated `name=NAME,link=MBPS[,speed=FACTOR][,builder=NAME]` → plan nodes. */
export const addedNodes = (z: Zod) =>
  z.array(
    z
      .string()
      .transform(splitFields)
      .pipe(
        z.strictObject({
          name: z.string().min(1),
          link: positiveNumber(z),
          speed: positiveNumber(z).optional(),
          builder: z.string().min(1).optional(),
        }),
      )
      .transform(({ name, link, speed, builder }) => ({
        name,
        builder: builder ?? name,
        linkMbps: link,
        speed: speed ?? 1,
      })),
  );
