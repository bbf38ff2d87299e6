import { ArtifactError } from '../../shared/errors.js';
import { type Sample, SAMPLES_VERSION, SampleSchema } from '../../artifacts/index.js';
import { decodeLine, type ByteLine } from '../logs/byte-line.js';
import { toRecord, toReject, toSkip, type LogLineParser } from '../logs/line-outcome.js';
import { formatZodIssues } from '../../shared/format-zod-issues.js';

// samples.jsonl back through SampleSchema, as a line parser for the log readers (createLogTail): a truncated last
// line (sampler killed mid-write) or a bad line is rejected and counted, and so is a sample no node can produce (a
// percentage outside 0..100, a negative rate or load) or one that is not later than its node's previous line. A file
// of another schema version (its first sample says so) stops the read, because every figure would be wrong; one
// line of another version in a version-1 file is one bad line.

const TS_FIELD = /"tsMs":(-?\d+(?:\.\d+)?)/;

const PERCENT_FIELDS = ['cpuBusyPct', 'memUsedPct'] as const;
const NON_NEGATIVE_FIELDS = ['diskReadBps', 'diskWriteBps', 'netRxBps', 'netTxBps', 'load1'] as const;

/** Why no node could have produced this sample; undefined when it is physically possible. Pure. */
function findImplausibleSample(sample: Sample): string | undefined {
  if (!sample.ok) return undefined;
  for (const field of PERCENT_FIELDS) {
    const value = sample[field];
    if (value !== null && !(value >= 0 && value <= 100))
      return `${field} ${value} is outside 0..100 % (a share of the node's capacity)`;
  }
  for (const field of NON_NEGATIVE_FIELDS) {
    const value = sample[field];
    if (value !== null && !(value >= 0 && Number.isFinite(value)))
      return `${field} ${value} is negative or infinite (a counter reset gives null, never a negative rate)`;
  }
  return undefined;
}

export function createSampleLineParser(source: string): LogLineParser<Sample> {
  // Lines this parser has seen, to name the one with another version (each parser reads one file from its start).
  let lineNumber = 0;
  let samplesSeen = 0;
  const lastTsByNode = new Map<string, number>();
  return {
    parseLine(line: ByteLine) {
      lineNumber += 1;
      if (line.bytes[line.start] !== 0x7b /* { */ && line.text.slice(line.start, line.end).trim() === '')
        return toSkip('blank');
      let value: unknown;
      try {
        value = JSON.parse(decodeLine(line));
      } catch {
        return toReject('not JSON (truncated or corrupted line)');
      }
      const version = (value as { version?: unknown } | null)?.version;
      if (version !== undefined && version !== SAMPLES_VERSION && samplesSeen > 0)
        return toReject(
          `samples version ${JSON.stringify(version)} in a version-${SAMPLES_VERSION} file (one line of another sampler)`,
        );
      if (version !== undefined && version !== SAMPLES_VERSION) {
        throw new ArtifactError(
          source,
          `line ${lineNumber}: samples version ${JSON.stringify(version)}, this rocm-perf reads version ${SAMPLES_VERSION}; ` +
            're-run the sampler with this rocm-perf, or read the run with the version that wrote it',
        );
      }
      const parsed = SampleSchema.safeParse(value);
      if (parsed.success) {
        samplesSeen += 1;
        const implausible = findImplausibleSample(parsed.data);
        if (implausible !== undefined) return toReject(implausible);
        const last = lastTsByNode.get(parsed.data.node);
        if (last !== undefined && !(parsed.data.tsMs > last))
          return toReject(
            `tsMs ${parsed.data.tsMs} of ${parsed.data.node} is not after its previous sample (${last}): time must increase per node`,
          );
        lastTsByNode.set(parsed.data.node, parsed.data.tsMs);
        return toRecord(parsed.data);
      }
      return toReject(
        formatZodIssues(parsed.error.issues, { limit: 1, root: '(line)' }) ||
          'does not match the sample schema',
      );
    },
    restart() {
      lineNumber = 0;
      samplesSeen = 0;
      lastTsByNode.clear();
    },
    timeOfLine(line: string) {
      const match = TS_FIELD.exec(line);
      return match ? Number(match[1]) : undefined;
    },
  };
}
