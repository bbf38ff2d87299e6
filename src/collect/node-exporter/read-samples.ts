import { readFile } from 'node:fs/promises';
import { ArtifactError } from '../../shared/errors.js';
import { parseSampleLines, type ParsedSamples } from './parse-sample-lines.js';

/** Reads a run's samples.jsonl through SampleSchema; counts bad lines in `stats` instead of throwing. */
export async function readSamples(path: string): Promise<ParsedSamples> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ArtifactError(path, `cannot read the samples file: ${(error as Error).message}`, {
      cause: error,
      hint: 'check the run directory; samples.jsonl is written by the sampler during a run',
    });
  }
  return parseSampleLines(text, path);
}
