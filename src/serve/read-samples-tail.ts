import { open } from 'node:fs/promises';
import { parseSampleLines } from '../collect/index.js';
import { createStreamStats, type Sample, type StreamStats } from '../artifacts/index.js';

// samples.jsonl read incrementally: only the bytes appended since the last read, up to the last complete line.
// A file that shrank or was replaced starts over.

export interface SamplesTail {
  read(): Promise<{ samples: Sample[]; stats: StreamStats; changed: boolean }>;
}

export function createSamplesTail(path: string, source = 'samples.jsonl'): SamplesTail {
  let offset = 0;
  let inode: number | undefined;
  let pending: Buffer = Buffer.alloc(0);
  let samples: Sample[] = [];
  let stats = createStreamStats(source);
  return {
    async read() {
      const handle = await open(path, 'r');
      try {
        const { size, ino } = await handle.stat();
        if (inode !== ino || size < offset) {
          [offset, inode, pending, samples, stats] = [0, ino, Buffer.alloc(0), [], createStreamStats(source)];
        }
        if (size === offset) return { samples, stats, changed: false };
        const chunk = Buffer.alloc(size - offset);
        const { bytesRead } = await handle.read(chunk, 0, chunk.length, offset);
        offset += bytesRead;
        const data = Buffer.concat([pending, chunk.subarray(0, bytesRead)]);
        const end = data.lastIndexOf(0x0a) + 1;
        pending = data.subarray(end);
        const parsed = parseSampleLines(data.subarray(0, end).toString('utf8'), source);
        samples = samples.concat(parsed.samples);
        stats = mergeStats(stats, parsed.stats);
        stats.bytes = offset;
        return { samples, stats, changed: parsed.stats.lines > 0 };
      } finally {
        await handle.close();
      }
    },
  };
}

function mergeStats(a: StreamStats, b: StreamStats): StreamStats {
  const skippedByReason = { ...a.skippedByReason };
  for (const [reason, count] of Object.entries(b.skippedByReason))
    skippedByReason[reason] = (skippedByReason[reason] ?? 0) + count;
  const shift = (line: number): number => line + a.lines;
  return {
    source: a.source,
    bytes: a.bytes + b.bytes,
    lines: a.lines + b.lines,
    records: a.records + b.records,
    skipped: a.skipped + b.skipped,
    skippedByReason,
    rejected: a.rejected + b.rejected,
    rejectedExamples: [
      ...a.rejectedExamples,
      ...b.rejectedExamples.map((e) => ({ ...e, line: shift(e.line) })),
    ].slice(0, 5),
  };
}
