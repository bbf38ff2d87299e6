// A complete log line inside a Buffer, handed to parsers' fast paths without decoding the whole chunk.

/** bytes[start, end): one line, without its newline and without one trailing CR. */
export interface ByteLine {
  bytes: Buffer;
  start: number;
  end: number;
  /**
   * `bytes` decoded as latin1 (one character per byte, same indices), decoded once per chunk by the cursor so fast
   * paths can run regular expressions and indexOf on it without a string per line. Slices of it of 13 characters or
   * more are views that keep the whole chunk alive: copy (copyLineText) whatever a record keeps.
   */
  text: string;
}

/** The line decoded as UTF-8, leniently (invalid bytes → U+FFFD): what the exact string parsers read. */
export function decodeLine(line: ByteLine): string {
  return line.bytes.toString('utf8', line.start, line.end);
}

/** A fresh (unsliced) string of bytes[start, start + length), so a record does not keep the chunk's text alive. */
export function copyLineText(line: ByteLine, start: number, length: number): string {
  return line.bytes.toString('latin1', start, start + length);
}

/** The line as a ByteLine over a Buffer of its own (tests, one-off lines). */
export function toByteLine(bytes: Buffer): ByteLine {
  return { bytes, start: 0, end: bytes.length, text: bytes.toString('latin1') };
}
