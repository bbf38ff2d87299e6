import { ArtifactError } from '../../shared/errors.js';
import {
  createStreamStats,
  type Sample,
  SAMPLES_VERSION,
  SampleSchema,
  type StreamStats,
} from '../../artifacts/index.js';

// samples.jsonl back through SampleSchema. A truncated last line (sampler killed mid-write) or a bad line is
// rejected and counted; a line of another schema version stops the read, because every figure would be wrong.

export interface ParsedSamples {
  samples: Sample[];
  stats: StreamStats;
}

const maxRejectedExamples = 5;

export function parseSampleLines(text: string, source: string): ParsedSamples {
  const stats = createStreamStats(source);
  stats.bytes = Buffer.byteLength(text, 'utf8');
  const samples: Sample[] = [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  lines.forEach((raw, index) => {
    stats.lines += 1;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') {
      stats.skipped += 1;
      stats.skippedByReason.blank = (stats.skippedByReason.blank ?? 0) + 1;
      return;
    }
    const result = parseSampleJsonLine(line, source, index + 1);
    if (typeof result === 'string') reject(stats, index + 1, result);
    else {
      samples.push(result);
      stats.records += 1;
    }
  });
  return { samples, stats };
}

function parseSampleJsonLine(line: string, source: string, lineNumber: number): Sample | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'not JSON (truncated or corrupted line)';
  }
  const version = (value as { version?: unknown } | null)?.version;
  if (version !== undefined && version !== SAMPLES_VERSION) {
    throw new ArtifactError(
      source,
      `line ${lineNumber}: samples version ${JSON.stringify(version)}, this rocm-perf reads version ${SAMPLES_VERSION}; ` +
        're-run the sampler with this rocm-perf, or read the run with the version that wrote it',
    );
  }
  const parsed = SampleSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return issue === undefined
    ? 'does not match the sample schema'
    : `${issue.path.join('.') || '(line)'}: ${issue.message}`;
}

function reject(stats: StreamStats, line: number, reason: string): void {
  stats.rejected += 1;
  if (stats.rejectedExamples.length < maxRejectedExamples) stats.rejectedExamples.push({ line, reason });
}
