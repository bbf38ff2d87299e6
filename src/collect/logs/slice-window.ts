// Time-window helpers over append-only, time-ordered logs: the probe step of the byte-offset binary search (pure:
// a block of bytes in, the first timestamped line out) and a filter for records already in memory.

export interface TimedLine {
  /** Offset of the line's first byte within the block. */
  lineStart: number;
  timeMs: number;
}

/**
 * The first complete line in `block` that carries a timestamp. A block that does not start a file begins mid-line,
 * so its first (partial) line is skipped. Undefined when no complete line in the block has a time.
 */
export function findFirstTimedLine(
  block: Buffer,
  options: { atFileStart: boolean; timeOfLine: (line: string) => number | undefined },
): TimedLine | undefined {
  let lineStart = options.atFileStart ? 0 : block.indexOf(10) + 1;
  if (lineStart === 0 && !options.atFileStart) return undefined;
  while (lineStart < block.length) {
    const newline = block.indexOf(10, lineStart);
    if (newline < 0) return undefined;
    const timeMs = options.timeOfLine(block.toString('utf8', lineStart, newline).replace(/\r$/, ''));
    if (timeMs !== undefined) return { lineStart, timeMs };
    lineStart = newline + 1;
  }
  return undefined;
}

export interface SearchRange {
  /** A line start known to be at or before the first line with time ≥ target. */
  low: number;
  /** Everything from here on is at or after the target (or unknown). */
  high: number;
}

/** One binary-search step: the probe at `probeOffset` found `line` (or nothing usable). */
export function narrowSearchRange(
  range: SearchRange,
  probe: { probeOffset: number; line: TimedLine | undefined; targetMs: number },
): SearchRange {
  const { probeOffset, line, targetMs } = probe;
  if (line !== undefined && line.timeMs < targetMs)
    return { low: probeOffset + line.lineStart, high: range.high };
  return { low: range.low, high: probeOffset };
}
