import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { RUN_INDEX_FILE, RunIndexStartLineSchema } from '../artifacts/index.js';
import { openRunFile } from '../shared/open-run-file.js';

// The one reader of a runs root's index file, `<root>/.runs-index.jsonl` (docs/history.md): confined like every
// run-dir file (no link, no hard link), read line by line (a 10,000-run file is never held whole). Each caller holds
// a line to its own schema: serve and publish to the whole entry (report/run-index.ts), listRuns to the start time.

/** Each non-blank line of the root's index file, in order; undefined when the root keeps no index file. */
export async function readRunIndexLines(
  root: string,
  onLine: (line: string) => void,
): Promise<{ bytes: number } | undefined> {
  let handle: FileHandle;
  try {
    handle = await openRunFile(path.join(root, RUN_INDEX_FILE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    for await (const line of handle.readLines({ encoding: 'utf8', autoClose: false }))
      if (line.trim() !== '') onLine(line);
    return { bytes: size };
  } finally {
    await handle.close();
  }
}

/**
 * Applies one index line to a map by folder, held to the caller's schema: an entry sets its folder (the last line of
 * a folder wins), a removal deletes it. False when the line is not JSON or fails the schema. Pure.
 */
export function applyRunIndexLine<Entry extends { folder: string }, Value>(
  line: string,
  schema: z.ZodType<Entry | { folder: string; removed: true }>,
  values: Map<string, Value>,
  toValue: (entry: Entry) => Value,
): boolean {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return false;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) return false;
  const data = parsed.data;
  if ('removed' in data && data.removed === true) values.delete(data.folder);
  else values.set(data.folder, toValue(data as Entry));
  return true;
}

/**
 * When each run the index lists started (the last line of a folder wins; a removal drops it); empty when the root
 * keeps no index or it cannot be read (the caller then reads each run.json). A line that fails its schema is skipped.
 */
export async function readIndexedStarts(root: string): Promise<Map<string, number>> {
  const starts = new Map<string, number>();
  await readRunIndexLines(root, (line) => {
    applyRunIndexLine(line, RunIndexStartLineSchema, starts, (entry) => entry.startedAtMs);
  }).catch(() => starts.clear());
  return starts;
}
