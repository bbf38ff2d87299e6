import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { LogCaptureError } from '../../shared/errors.js';
import type { RemoteHost } from '../executors/index.js';
import { findFirstDifference, type LogGeneration } from './log-rotation/index.js';
import { DIGEST_BLOCK_BYTES, runReadCopy, runRemoteDigest, type RemoteCopy } from './remote-log-files.js';

// Is the run dir's run-dir copy of a generation what the host's file holds? Compared by SHA-256 a block at a time
// (the host hashes its bytes, we hash ours), so a 500 MB log is neither sent over the link again nor held in memory
// at the end of a run; only the bytes the run-dir copy lacks are fetched. A difference is then located to the byte
// from the one block that differs.

/** The host's file agrees with the run-dir copy over their common length. */
export interface CopyMatch {
  copy: RemoteCopy;
  /** Bytes the host's file holds from the generation's start offset. */
  lengthBytes: number;
  /** Its bytes past the run-dir copy (when it holds more): read over the link. */
  extra: Buffer;
}

export interface CopyDifference {
  /** Offset in the host's file of the first byte that differs. */
  differsAt: number;
}

/** The SHA-256 of each DIGEST_BLOCK_BYTES block of a local file's bytes [from, from + length). */
async function hashLocalBlocks(file: string, from: number, length: number): Promise<string[]> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(DIGEST_BLOCK_BYTES, Math.max(length, 1)));
    const digests: string[] = [];
    for (let done = 0; done < length;) {
      const want = Math.min(DIGEST_BLOCK_BYTES, length - done);
      const { bytesRead } = await handle.read(buffer, 0, want, from + done);
      if (bytesRead < want)
        throw new LogCaptureError(
          file,
          `${file} ends at byte ${from + done + bytesRead}, before the ${from + length} the capture wrote; was it changed during the run?`,
        );
      digests.push(createHash('sha256').update(buffer.subarray(0, want)).digest('hex'));
      done += want;
    }
    return digests;
  } finally {
    await handle.close();
  }
}

async function readLocalBlock(file: string, from: number, length: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, from);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Compares a generation's run-dir copy (in `localPath`) with a file on the host holding the same generation. */
export async function compareRunDirCopy(options: {
  host: RemoteHost;
  localPath: string;
  generation: LogGeneration;
  copy: RemoteCopy;
}): Promise<CopyMatch | CopyDifference> {
  const { host, localPath, generation, copy } = options;
  const copiedBytes = generation.appendedOffset - generation.startOffset;
  const remote = await runRemoteDigest(host, copy, generation.startOffset, copiedBytes);
  const common = Math.min(remote.lengthBytes, copiedBytes);
  const local = await hashLocalBlocks(localPath, generation.localOffset, common);
  const block = local.findIndex((digest, index) => digest !== remote.blockDigests[index]);
  if (block >= 0 || remote.blockDigests.length !== local.length) {
    const index = block >= 0 ? block : Math.min(local.length, remote.blockDigests.length);
    const offset = index * DIGEST_BLOCK_BYTES;
    const length = Math.min(DIGEST_BLOCK_BYTES, common - offset);
    const [theirs, ours] = await Promise.all([
      runReadCopy(host, copy, generation.startOffset + offset, length),
      readLocalBlock(localPath, generation.localOffset + offset, length),
    ]);
    const within = findFirstDifference(theirs, ours) ?? Math.min(theirs.length, ours.length);
    return { differsAt: generation.startOffset + offset + within };
  }
  const extra =
    remote.lengthBytes > copiedBytes
      ? await runReadCopy(host, copy, generation.appendedOffset)
      : Buffer.alloc(0);
  const lengthBytes = remote.lengthBytes > copiedBytes ? copiedBytes + extra.length : remote.lengthBytes;
  return { copy, lengthBytes, extra };
}
