import {
  addSample,
  createSampleTable,
  type SampleTable,
  sortSampleTable,
  type StreamStats,
} from '../../artifacts/index.js';
import { ArtifactError } from '../../shared/errors.js';
import { createLogTail } from '../log-reader/create-log-tail.js';
import { createSampleLineParser } from './create-sample-line-parser.js';
import { errorMessage } from '../../shared/error-message.js';

// samples.jsonl into a SampleTable, through the log readers' chunked cursor (4 MiB at a time, never the whole file as
// one string). Once for report and publish (readSamples); incrementally for serve (createSamplesTail: each read
// parses only the lines appended since, and a file that shrank or was replaced starts a new table).

export interface SamplesRead {
  table: SampleTable;
  stats: StreamStats;
  /** New lines since the previous read, or the file started over. */
  changed: boolean;
}

export interface SamplesTail {
  read(): Promise<SamplesRead>;
}

export function createSamplesTail(path: string, source = 'samples.jsonl'): SamplesTail {
  const tail = createLogTail({
    ...createSampleLineParser(source),
    path,
    source,
    aggregate: { create: () => createSampleTable(), add: addSample },
    keep: () => false,
  });
  let lines = 0;
  return {
    async read() {
      const read = await tail.read();
      const changed = read.reset || read.stats.lines !== lines;
      lines = read.stats.lines;
      sortSampleTable(read.aggregate);
      return { table: read.aggregate, stats: read.stats, changed };
    },
  };
}

/** Reads a run's samples.jsonl whole (an unterminated last line included); bad lines are counted in `stats`. */
export async function readSamples(path: string): Promise<Omit<SamplesRead, 'changed'>> {
  try {
    const read = await createLogTail({
      ...createSampleLineParser(path),
      path,
      aggregate: { create: () => createSampleTable(), add: addSample },
      keep: () => false,
    }).readToEnd();
    sortSampleTable(read.aggregate);
    return { table: read.aggregate, stats: read.stats };
  } catch (error) {
    if (error instanceof ArtifactError) throw error;
    throw new ArtifactError(path, `cannot read the samples file: ${errorMessage(error)}`, {
      cause: error,
      hint: 'check the run directory; samples.jsonl is written by the sampler during a run',
    });
  }
}
