// A complete log line inside a chunk: what every line parser reads. The cursor decodes each chunk once as latin1
// (one character per byte, so text indices are byte offsets and ASCII reads as itself) instead of once per line.

/** bytes[start, end): one line, without its newline and one trailing CR; `text` is `bytes` decoded as latin1. */
export interface ByteLine {
  bytes: Buffer;
  start: number;
  end: number;
  text: string;
}

/** The line decoded as UTF-8, leniently (invalid bytes → U+FFFD): what a parser reads when it needs real text. */
export function decodeLine(line: ByteLine): string {
  return line.bytes.toString('utf8', line.start, line.end);
}

/**
 * text[from, to) as a string a record may keep. V8 makes a slice of 13 characters or more a view that keeps the whole
 * chunk's text alive, so longer ones are copied from the bytes.
 */
export function copyLineText(line: ByteLine, from: number, to: number): string {
  return to - from < 13 ? line.text.slice(from, to) : line.bytes.toString('latin1', from, to);
}

/** A line of its own (tests, one-off lines); a string is encoded as UTF-8. */
export function toByteLine(line: string | Buffer): ByteLine {
  const bytes = typeof line === 'string' ? Buffer.from(line, 'utf8') : line;
  return { bytes, start: 0, end: bytes.length, text: bytes.toString('latin1') };
}
