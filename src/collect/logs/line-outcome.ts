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
