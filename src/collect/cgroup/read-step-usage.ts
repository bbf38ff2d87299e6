import {
  STEP_USAGE_VERSION,
  StepUsageSampleSchema,
  type StepUsagePoll,
  type StepUsageSample,
  type StreamStats,
} from '../../artifacts/index.js';
import { ArtifactError } from '../../shared/errors.js';
import { errorMessage } from '../../shared/error-message.js';
import { formatZodIssues } from '../../shared/format-zod-issues.js';
import { createLogTail } from '../log-reader/create-log-tail.js';
import { decodeLine, type ByteLine } from '../logs/byte-line.js';
import { toRecord, toReject, toSkip, type LogLineParser } from '../logs/line-outcome.js';

// step-usage.jsonl back through its schema (the one reader; artifacts/step-usage-file.ts): a bad or truncated line is
// rejected and counted in the stream's stats, never read as a figure; a poll that is not later than its node's
// previous one is rejected too. A file of another version stops the read.

const TS_FIELD = /"tsMs":(-?\d+(?:\.\d+)?)/;

function createStepUsageLineParser(source: string): LogLineParser<StepUsageSample> {
  let lineNumber = 0;
  const lastTsByNode = new Map<string, number>();
  return {
    parseLine(line: ByteLine) {
      lineNumber += 1;
      const text = decodeLine(line);
      if (text.trim() === '') return toSkip('blank');
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return toReject('not JSON (truncated or corrupted line)');
      }
      const version = (value as { version?: unknown } | null)?.version;
      if (lineNumber === 1 && version !== undefined && version !== STEP_USAGE_VERSION)
        throw new ArtifactError(
          source,
          `line 1: step-usage version ${JSON.stringify(version)}, this rocm-perf reads version ${STEP_USAGE_VERSION}`,
          { hint: 'read the run with the rocm-perf version that recorded it' },
        );
      const parsed = StepUsageSampleSchema.safeParse(value);
      if (!parsed.success)
        return toReject(
          formatZodIssues(parsed.error.issues, { limit: 1, root: '(line)' }) || 'does not match the schema',
        );
      const last = lastTsByNode.get(parsed.data.node);
      if (last !== undefined && !(parsed.data.tsMs > last))
        return toReject(
          `tsMs ${parsed.data.tsMs} of ${parsed.data.node} is not after its previous poll (${last})`,
        );
      lastTsByNode.set(parsed.data.node, parsed.data.tsMs);
      return toRecord(parsed.data);
    },
    restart() {
      lineNumber = 0;
      lastTsByNode.clear();
    },
    timeOfLine(line: string) {
      const match = TS_FIELD.exec(line);
      return match ? Number(match[1]) : undefined;
    },
  };
}

export interface StepUsageRead {
  polls: StepUsagePoll[];
  /** Polls that failed (the node link), per node: how many, and the first one's error. */
  gaps: Map<string, { count: number; firstError: string }>;
  stats: StreamStats;
}

export async function readStepUsage(path: string): Promise<StepUsageRead> {
  try {
    const read = await createLogTail({
      ...createStepUsageLineParser(path),
      path,
      aggregate: {
        create: (): Omit<StepUsageRead, 'stats'> => ({ polls: [], gaps: new Map() }),
        add: (aggregate, sample: StepUsageSample) => {
          if (sample.ok) aggregate.polls.push(sample);
          else {
            const known = aggregate.gaps.get(sample.node);
            if (known) known.count += 1;
            else aggregate.gaps.set(sample.node, { count: 1, firstError: sample.error });
          }
        },
      },
      keep: () => false,
    }).readToEnd();
    return { ...read.aggregate, stats: read.stats };
  } catch (error) {
    if (error instanceof ArtifactError) throw error;
    throw new ArtifactError(path, `cannot read the step-usage file: ${errorMessage(error)}`, {
      cause: error,
      hint: 'check the run directory; step-usage.jsonl is written by the step-usage sampler during a run',
    });
  }
}
