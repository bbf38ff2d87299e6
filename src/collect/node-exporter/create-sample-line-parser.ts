import { ArtifactError } from '../../shared/errors.js';
import { type Sample, SAMPLES_VERSION, SampleSchema } from '../../artifacts/index.js';
import { decodeLine, type ByteLine } from '../logs/byte-line.js';
import { toRecord, toReject, toSkip, type LogLineParser } from '../logs/line-outcome.js';
import { formatZodIssues } from '../../shared/format-zod-issues.js';

// samples.jsonl back through SampleSchema, as a line parser for the log readers (createLogTail): a truncated last
// line (sampler killed mid-write) or a bad line is rejected and counted; a line of another schema version stops the
// read, because every figure would be wrong.

const TS_FIELD = /"tsMs":(-?\d+(?:\.\d+)?)/;

export function createSampleLineParser(source: string): LogLineParser<Sample> {
  // Lines this parser has seen, to name the one with another version (each parser reads one file from its start).
  let lineNumber = 0;
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
      if (version !== undefined && version !== SAMPLES_VERSION) {
        throw new ArtifactError(
          source,
          `line ${lineNumber}: samples version ${JSON.stringify(version)}, this rocm-perf reads version ${SAMPLES_VERSION}; ` +
            're-run the sampler with this rocm-perf, or read the run with the version that wrote it',
        );
      }
      const parsed = SampleSchema.safeParse(value);
      if (parsed.success) return toRecord(parsed.data);
      return toReject(
        formatZodIssues(parsed.error.issues, { limit: 1, root: '(line)' }) ||
          'does not match the sample schema',
      );
    },
    timeOfLine(line: string) {
      const match = TS_FIELD.exec(line);
      return match ? Number(match[1]) : undefined;
    },
  };
}
