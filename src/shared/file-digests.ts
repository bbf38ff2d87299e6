import { createHash, type Hash } from 'node:crypto';

// What the run wrote, file by file: size and SHA-256 of the bytes as they went to disk (never read back), for
// run.json's `files`. A file written whole is hashed from the bytes handed to the write; a stream (samples.jsonl, a
// status stream) is hashed chunk by chunk as it is written; a file rewritten whole starts over.

interface FileRecord {
  sizeBytes: number;
  sha256: string;
  traceIds?: string[];
}

export interface FileDigestWriter {
  update(bytes: string | Uint8Array): void;
  /** The file is being written again from its start (a rewrite by rename): forget what was hashed so far. */
  restart(): void;
}

export interface FileDigests {
  /** A file written whole, from the exact bytes of the write. */
  recordWhole(name: string, bytes: string | Uint8Array, extra?: { traceIds?: string[] }): void;
  /** A file written in pieces: feed each piece as it is written. */
  open(name: string): FileDigestWriter;
  /** Every file so far, by name, sorted. */
  toRecords(): Record<string, FileRecord>;
}

const toBuffer = (bytes: string | Uint8Array) =>
  typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;

export function createFileDigests(): FileDigests {
  const whole = new Map<string, FileRecord>();
  const streams = new Map<string, { hash: Hash; sizeBytes: number }>();
  return {
    recordWhole(name, bytes, extra) {
      const buffer = toBuffer(bytes);
      streams.delete(name);
      whole.set(name, {
        sizeBytes: buffer.length,
        sha256: createHash('sha256').update(buffer).digest('hex'),
        ...(extra?.traceIds && extra.traceIds.length > 0 ? { traceIds: extra.traceIds } : {}),
      });
    },
    open(name) {
      const state = { hash: createHash('sha256'), sizeBytes: 0 };
      whole.delete(name);
      streams.set(name, state);
      return {
        update(bytes) {
          const buffer = toBuffer(bytes);
          state.hash.update(buffer);
          state.sizeBytes += buffer.length;
        },
        restart() {
          state.hash = createHash('sha256');
          state.sizeBytes = 0;
        },
      };
    },
    toRecords() {
      const records: Record<string, FileRecord> = {};
      const names = [...new Set([...whole.keys(), ...streams.keys()])].sort();
      for (const name of names) {
        const stream = streams.get(name);
        records[name] = stream
          ? { sizeBytes: stream.sizeBytes, sha256: stream.hash.copy().digest('hex') }
          : (whole.get(name) as FileRecord);
      }
      return records;
    },
  };
}
