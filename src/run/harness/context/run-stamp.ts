import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../../../shared/clock.js';
import { InternalError } from '../../../shared/errors.js';
import { throwFileAccessError, toFileAccessError } from '../../../shared/to-file-access-error.js';

// A run stamp is a UTC time plus a short random id: sortable by name, and never reused — the run
// directory is created exclusively, and a clash draws a new id.

/** `20260820T100105Z-k3m9q2`: compact ISO UTC time, then 6 base-36 characters. @internal */
export function createRunStamp({ nowMs, id }: { nowMs: number; id: string }): string {
  const iso = new Date(nowMs)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
  return `${iso}-${id}`;
}

/** @internal */
export function createShortId(bytes: Uint8Array = randomBytes(8)): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return value.toString(36).padStart(6, '0').slice(-6);
}

export interface CreateRunDirOptions {
  root: string;
  clock: Clock;
  newId?: () => string;
}

/** Creates `<root>/<stamp>/` exclusively; returns the stamp and the absolute directory. */
export async function createRunDir({
  root,
  clock,
  newId = () => createShortId(),
}: CreateRunDirOptions): Promise<{ stamp: string; dir: string }> {
  const rootTarget = { path: root, flag: '--root', doing: 'create a run dir under it' };
  await mkdir(root, { recursive: true }).catch(throwFileAccessError(rootTarget));
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const stamp = createRunStamp({ nowMs: clock.nowMs(), id: newId() });
    const dir = path.resolve(root, stamp);
    try {
      await mkdir(dir);
      return { stamp, dir };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw toFileAccessError(error, rootTarget);
    }
  }
  throw new InternalError(`could not create a fresh run directory under ${root} after 20 attempts`);
}
