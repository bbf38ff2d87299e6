import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Sample } from '../../artifacts/index.js';

// samples.jsonl: one JSON line per node per scrape, appended as the sampler produces them.

export interface SamplesWriter {
  write(sample: Sample): void;
  close(): Promise<void>;
}

export function toSampleLine(sample: Sample): string {
  return `${JSON.stringify(sample)}\n`;
}

/**
 * Appends to `path` (created if missing). Pass `write` as the sampler's `onSample`. A failed write is passed to
 * `onError` (then close() resolves; samples after it are dropped) or, without one, rethrown by close().
 */
export function createSamplesWriter(
  path: string,
  onError?: (error: Error) => void,
  /** Sees each line as it is written (a run's digest of samples.jsonl). */
  digest?: { update(bytes: string): void },
): SamplesWriter {
  const stream = createWriteStream(path, { flags: 'a' });
  let failure: Error | undefined;
  stream.on('error', (error) => {
    if (failure === undefined) onError?.(error);
    failure ??= error;
  });
  return {
    write(sample) {
      if (failure !== undefined) return;
      const line = toSampleLine(sample);
      stream.write(line);
      digest?.update(line);
    },
    async close() {
      if (failure === undefined && !stream.destroyed) {
        stream.end();
        await once(stream, 'close');
      }
      if (failure !== undefined && onError === undefined) throw failure;
    },
  };
}
