import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ARCH_PLACEHOLDER } from './resolve-config.js';

// The arches a per-arch file template has files for: `.builders/bake-print.{arch}.json` with bake-print.gfx1201.json
// and bake-print.gfx942.json beside it gives gfx1201 and gfx942. Reads one directory listing.

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export async function readKnownArches(template: string): Promise<string[]> {
  const base = path.basename(template);
  if (!base.includes(ARCH_PLACEHOLDER)) return [];
  const [before, after] = base.split(ARCH_PLACEHOLDER) as [string, string];
  const pattern = new RegExp(`^${escapeRegExp(before)}([A-Za-z0-9_-]+)${escapeRegExp(after)}$`);
  const names = await readdir(path.dirname(template)).catch(() => [] as string[]);
  return names.flatMap((name) => pattern.exec(name)?.[1] ?? []).sort();
}
