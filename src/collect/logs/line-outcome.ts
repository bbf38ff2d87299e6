// What a line parser says about one line: a record, a deliberate skip, or a rejection (malformed).
// Every line read ends up in exactly one of the three, so `lines == records + skipped + rejected`.

import type { ByteLine } from './byte-line.js';

export type LineOutcome<R> =
  | { ok: true; record: R }
  | { ok: false; rejected: false; reason: string }
  | { ok: false; rejected: true; reason: string };

export interface LogLineParser<R> {
  /** Parses one line (no trailing newline or CR). Never throws. */
  parseLine: (line: string) => LineOutcome<R>;
  /** The line's timestamp in ms, read as cheaply as possible (for binary search); undefined when absent. */
  timeOfLine: (line: string) => number | undefined;
  /**
   * The same as parseLine on the line's UTF-8 decoding, read from its bytes (the fast path); optional: without it
   * the cursor decodes each line and calls parseLine.
   */
  parseBytes?: (line: ByteLine) => LineOutcome<R>;
  /**
   * A batch path over whole chunks (the native scanner); optional: when present the cursor reads complete lines
   * through it instead of line by line, with the same outcomes.
   */
  chunkReader?: ChunkLineReader<R>;
}

/**
 * Reads the complete lines of a chunk at once, then hands out their outcomes in order. The cursor calls scan, then
 * for each line i < the count: lineNext(i) and outcome(i), once each and in order (parsers keep state between lines,
 * such as registry upload sessions).
 */
export interface ChunkLineReader<R> {
  /** Reads lines of bytes[from, to) (to is just past a newline); returns how many, > 0 when from < to. */
  scan(bytes: Buffer, from: number, to: number): number;
  /** Just past line i's newline: where the next line starts. */
  lineNext(index: number): number;
  outcome(index: number): LineOutcome<R>;
}

export function toRecord<R>(record: R): LineOutcome<R> {
  return { ok: true, record };
}

const skips = new Map<string, LineOutcome<never>>();

/** A deliberate skip; the outcome objects are shared per reason (they are immutable). */
export function toSkip(reason: string): LineOutcome<never> {
  let outcome = skips.get(reason);
  if (outcome === undefined) {
    outcome = { ok: false, rejected: false, reason };
    skips.set(reason, outcome);
  }
  return outcome;
}

export function toReject(reason: string): LineOutcome<never> {
  return { ok: false, rejected: true, reason };
}
