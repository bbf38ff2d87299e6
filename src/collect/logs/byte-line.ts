// A complete log line inside a Buffer, handed to parsers' fast paths without decoding the whole chunk.

/** bytes[start, end): one line, without its newline and without one trailing CR. */
export interface ByteLine {
  bytes: Buffer;
  start: number;
  end: number;
}

/** The line decoded as UTF-8, leniently (invalid bytes → U+FFFD): what the exact string parsers read. */
export function decodeLine(line: ByteLine): string {
  return line.bytes.toString('utf8', line.start, line.end);
}

/**
 * The line decoded as latin1: one character per byte, so character positions are byte positions, and for a line
 * of ASCII it is exactly the UTF-8 decoding. Fast paths match it with regular expressions that accept printable
 * ASCII only (plus what they re-decode as UTF-8 themselves).
 */
export function decodeLineBytes(line: ByteLine): string {
  return line.bytes.toString('latin1', line.start, line.end);
}

/** A fresh (unsliced) string of bytes[start, end) of the line, so a record does not keep the line's text alive. */
export function copyLineText(line: ByteLine, start: number, length: number): string {
  return line.bytes.toString('latin1', line.start + start, line.start + start + length);
}
