// Binary search over byte offsets of an append-only, time-ordered log for a line start at or before the first
// line with time ≥ targetMs. Reads O(log(size / probeBytes)) small blocks; never parses the file.
import type { FileHandle } from 'node:fs/promises';
import { findFirstTimedLine, narrowSearchRange } from '../logs/slice-window.js';
import type { SearchRange } from '../logs/slice-window.js';

export interface FindWindowOffsetOptions {
  handle: FileHandle;
  sizeBytes: number;
  targetMs: number;
  timeOfLine: (line: string) => number | undefined;
  /** Default 16 KiB: a few complete lines; a probe without a timed line only makes the search conservative. */
  probeBytes?: number;
}

export async function findWindowOffset(options: FindWindowOffsetOptions): Promise<number> {
  const probeBytes = options.probeBytes ?? 16 * 1024;
  const block = Buffer.allocUnsafe(probeBytes);
  let range: SearchRange = { low: 0, high: options.sizeBytes };
  while (range.high - range.low > probeBytes) {
    const probeOffset = range.low + Math.floor((range.high - range.low) / 2);
    const { bytesRead } = await options.handle.read(block, 0, probeBytes, probeOffset);
    const line = findFirstTimedLine(block.subarray(0, bytesRead), {
      atFileStart: probeOffset === 0,
      timeOfLine: options.timeOfLine,
    });
    range = narrowSearchRange(range, { probeOffset, line, targetMs: options.targetMs });
  }
  return range.low;
}
