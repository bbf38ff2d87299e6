// What one parser saw in one input stream: every reader returns these beside its records, and the report's warnings
// and data.json's stream list are made from them. A stream with bytes but no records must be surfaced, never a 0.

/** What one parser saw in one input stream. A stream with bytes but zero records must be surfaced. */
export interface StreamStats {
  /** File name or label of the stream, e.g. `zot.jsonl`. */
  source: string;
  bytes: number;
  lines: number;
  records: number;
  /** Lines deliberately ignored (not HTTP, not in window, overhead …), by reason. */
  skipped: number;
  skippedByReason: Record<string, number>;
  /** Lines that looked like they should parse but did not (malformed, truncated, invalid values). */
  rejected: number;
  /** Up to a few examples of rejected lines: 1-based line number and why. */
  rejectedExamples: { line: number; reason: string }[];
}

export function createStreamStats(source: string): StreamStats {
  return {
    source,
    bytes: 0,
    lines: 0,
    records: 0,
    skipped: 0,
    skippedByReason: {},
    rejected: 0,
    rejectedExamples: [],
  };
}

/** Loud warnings a stream deserves: bytes but no records, or many rejected lines. Never a silent 0. */
export function findStreamWarnings(stats: StreamStats): string[] {
  const warnings: string[] = [];
  if (stats.bytes > 0 && stats.records === 0) {
    const why = Object.entries(stats.skippedByReason)
      .map(([reason, count]) => `${count} ${reason}`)
      .join(', ');
    warnings.push(
      `${stats.source}: read ${stats.bytes} bytes in ${stats.lines} lines but found no records` +
        ` (${stats.rejected} rejected${why ? `, skipped: ${why}` : ''}); the producer's format may have changed`,
    );
  } else if (stats.rejected > 0 && stats.rejected >= stats.records) {
    warnings.push(`${stats.source}: ${stats.rejected} lines rejected against ${stats.records} records`);
  }
  return warnings;
}
