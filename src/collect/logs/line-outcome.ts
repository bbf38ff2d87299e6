// What a line parser says about one line: a record, a deliberate skip, or a rejection (malformed).
// Every line read ends up in exactly one of the three, so `lines == records + skipped + rejected`.
import type { ByteLine } from './byte-line.js';

export type LineOutcome<R> =
  | { ok: true; record: R }
  | { ok: false; rejected: false; reason: string }
  | { ok: false; rejected: true; reason: string };

export interface LogLineParser<R> {
  /** Parses one line (no trailing newline or CR). Never throws. */
  parseLine: (line: ByteLine) => LineOutcome<R>;
  /** The line's timestamp in ms, read as cheaply as possible (for the binary search); undefined when absent. */
  timeOfLine: (line: string) => number | undefined;
  /** Forgets what earlier lines taught the parser (the file started over: shrank or was replaced). */
  restart?: () => void;
}

export function toRecord<R>(record: R): LineOutcome<R> {
  return { ok: true, record };
}

export function toSkip(reason: string): LineOutcome<never> {
  return { ok: false, rejected: false, reason };
}

export function toReject(reason: string): LineOutcome<never> {
  return { ok: false, rejected: true, reason };
}
