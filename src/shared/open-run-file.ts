import { constants, type Stats } from 'node:fs';
import { lstat, open, readdir, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { RocmPerfError } from './errors.js';

// Confinement: the one way a run-dir file is opened (docs/trust.md). A run dir is untrusted input (a tarball from
// CI, a copy from another host), so a file in it is read only when it is a regular file of its own: opened with
// O_NOFOLLOW (a symbolic link is refused, never followed) and O_NONBLOCK (a FIFO cannot hang the open), then
// checked with fstat on the opened descriptor, not by a stat before the open, so nothing can be swapped in
// between. A hard link (more than one link) may be a file outside the run dir and is refused too; so is any
// FIFO, socket, device or directory. In shared/, not artifacts/: artifacts/index.ts stays importable without node:fs (the page bundle imports it).

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** A run-dir file that is not a regular file of the run dir's own: what it is, said for an error line. */
export class RunFileRefusedError extends RocmPerfError {
  readonly path: string;
  /** What the file is, e.g. `a symbolic link`. */
  readonly reason: string;

  constructor(file: string, reason: string) {
    super(
      'ROCMPERF_RUN_FILE_REFUSED',
      `${file}: refused: ${reason}; a run-dir file is read only when it is a regular file of its own`,
      {
        hint: 'replace it with the file itself (`cp --remove-destination "$(readlink -f F)" F` after checking what it points at), or remove it; rocm-perf never follows a link out of a run dir',
      },
    );
    this.path = file;
    this.reason = reason;
  }
}

/** Why a file with these stats may not be read as a run-dir file; undefined when it may. Pure. */
function findUnsafeFileReason(stats: Pick<Stats, 'nlink'> & FileKind): string | undefined {
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isDirectory()) return 'a directory';
  if (!stats.isFile()) return 'not a regular file';
  if (stats.nlink > 1)
    return `a hard link (${stats.nlink} names for one file; another may be outside the run dir)`;
  return undefined;
}

type FileKind = Pick<
  Stats,
  'isFile' | 'isDirectory' | 'isSymbolicLink' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'
>;

/**
 * Opens a run-dir file for reading, confined: a symbolic link, a hard link, a FIFO, socket, device or directory
 * is a RunFileRefusedError naming the file. A missing file rejects with the ENOENT error as `open` would.
 */
export async function openRunFile(file: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (error) {
    // O_NOFOLLOW on a symbolic link is ELOOP on Linux (EMLINK on FreeBSD); opening a socket is ENXIO.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') throw new RunFileRefusedError(file, 'a symbolic link');
    if (code === 'ENXIO') {
      const stats = await lstat(file).catch(() => undefined);
      throw new RunFileRefusedError(file, (stats && findUnsafeFileReason(stats)) ?? 'not a regular file');
    }
    throw error;
  }
  const reason = findUnsafeFileReason(await handle.stat());
  if (reason === undefined) return handle;
  await handle.close();
  throw new RunFileRefusedError(file, reason);
}

/** A run-dir file's bytes, read confined (openRunFile). */
export async function readRunFileBytes(file: string): Promise<Buffer> {
  const handle = await openRunFile(file);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * A run-dir file's size and mtime when it is a regular file of its own (lstat: a link is never followed), else
 * undefined. For signatures and size checks that read no bytes; the read itself goes through openRunFile.
 */
export async function statRunFile(file: string): Promise<{ size: number; mtimeMs: number } | undefined> {
  const stats = await lstat(file).catch(() => undefined);
  if (stats === undefined || findUnsafeFileReason(stats) !== undefined) return undefined;
  return { size: stats.size, mtimeMs: stats.mtimeMs };
}

export interface UnsafeEntry {
  /** Path relative to the walked dir. */
  name: string;
  reason: string;
}

/**
 * Every entry under DIR (recursively, links never followed) that openRunFile would refuse, in name order: what
 * `import` checks a run dir (or an unpacked tarball) for before it takes anything.
 */
export async function findUnsafeEntries(dir: string, prefix = ''): Promise<UnsafeEntry[]> {
  const found: UnsafeEntry[] = [];
  for (const name of (await readdir(dir)).sort()) {
    const full = path.join(dir, name);
    const relative = prefix === '' ? name : `${prefix}/${name}`;
    const stats = await lstat(full);
    if (stats.isDirectory()) found.push(...(await findUnsafeEntries(full, relative)));
    else {
      const reason = findUnsafeFileReason(stats);
      if (reason !== undefined) found.push({ name: relative, reason });
    }
  }
  return found;
}
