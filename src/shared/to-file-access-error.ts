import path from 'node:path';
import { FileAccessError } from './errors.js';

// A file-system error (ENOENT, EACCES, ENOSPC…) on a path the user chose, in words: which flag, which path, what
// is wrong and what to do. Pure: it reads the error's fields, never the disk.

export interface FileTarget {
  /** The path as the user gave it, or the default that was used. */
  path: string;
  /** The flag (or variable) that named it, e.g. `--out`; absent for a path the user did not name. */
  flag?: string | undefined;
  /** What was being done, as `cannot …` reads it: `write the trace`, `create the plan folder`. */
  doing: string;
  /** A good value for a flag that names a file, offered when the path is a folder: `RUN/perfetto-trace.json`. */
  example?: string | undefined;
  /** Reading, not writing: a permission is then about the file itself, not the folder it sits in. */
  reading?: boolean | undefined;
}

/**
 * `failed`: the path the system call failed on; `folder`: the folder it sits in; `subject`: the one to name for a
 * permission (the listed or read path itself, else the folder a file was being made in).
 */
interface FailedAt {
  failed: string;
  folder: string;
  subject: string;
  syscall: string | undefined;
}
type Reason = (where: FailedAt) => { what: string; fix: string };

const REASONS: Readonly<Record<string, Reason>> = {
  // Node's recursive mkdir reports a read-only file system as ENOENT too.
  ENOENT: ({ failed, folder, syscall }) =>
    syscall === 'mkdir'
      ? {
          what: `folder ${failed} cannot be created: a folder above it is missing or read-only`,
          fix: 'create it first (mkdir -p), or choose a place you can write to',
        }
      : {
          what: `folder ${folder} does not exist`,
          fix: `create it first (mkdir -p ${folder}) or choose another place`,
        },
  // Listing a path names that path; opening a file under it names the file.
  ENOTDIR: ({ subject }) => ({
    what: `${subject} is a file, not a folder`,
    fix: 'choose a path whose folders are folders',
  }),
  EEXIST: ({ failed }) => ({
    what: `${failed} is a file, not a folder`,
    fix: 'choose a folder, or a name nothing else uses',
  }),
  EISDIR: ({ failed }) => ({ what: `${failed} is a folder`, fix: 'name a file' }),
  EACCES: ({ subject }) => ({
    what: `permission denied on ${subject}`,
    fix: `fix its permissions (ls -ld ${subject}) or choose another place`,
  }),
  EROFS: ({ folder }) => ({
    what: `${folder} is on a read-only file system`,
    fix: 'choose a place on a writable file system',
  }),
  ENOSPC: ({ failed }) => ({
    what: `no space left on the device holding ${failed}`,
    fix: `free some space there (df -h ${failed}) or choose another place`,
  }),
  EDQUOT: ({ failed }) => ({
    what: `disk quota exceeded writing ${failed}`,
    fix: 'free some space within your quota or choose another place',
  }),
  EMFILE: () => ({ what: 'too many open files', fix: 'raise the limit (ulimit -n 4096) and run again' }),
  EIO: ({ failed }) => ({
    what: `input/output error on ${failed}`,
    fix: 'check the disk or network mount holding it (dmesg)',
  }),
  ENAMETOOLONG: ({ failed }) => ({ what: `the name ${failed} is too long`, fix: 'choose a shorter path' }),
};
const ALIASES: Readonly<Record<string, string>> = { EPERM: 'EACCES', ENFILE: 'EMFILE' };

/** Codes that say something about the machine, never about our code: the top-level catch words them too. */
const ENVIRONMENT_CODES = new Set([
  'EACCES',
  'EPERM',
  'EROFS',
  'ENOSPC',
  'EDQUOT',
  'EMFILE',
  'ENFILE',
  'EIO',
]);

function errnoOf(error: unknown): NodeJS.ErrnoException | undefined {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string'
    ? error
    : undefined;
}

/** True for an error about the machine (disk full, permissions, read-only) rather than a bug. */
export function isEnvironmentError(error: unknown): error is NodeJS.ErrnoException {
  const code = errnoOf(error)?.code;
  return code !== undefined && ENVIRONMENT_CODES.has(code);
}

/**
 * `error` as a FileAccessError naming `target` when it is a file-system error this knows; anything else comes back
 * unchanged, to be thrown as it was (a bug stays a bug).
 */
export function toFileAccessError(error: unknown, target: FileTarget): unknown {
  const errno = errnoOf(error);
  const code = errno?.code === undefined ? undefined : (ALIASES[errno.code] ?? errno.code);
  const reason = code === undefined ? undefined : REASONS[code];
  if (!errno || !reason) return error;
  // A rename or a copy names its source in `path` and the place being written in `dest`.
  const dest = (errno as { dest?: string }).dest;
  const failed = dest ?? errno.path ?? path.resolve(target.path);
  const folder = path.dirname(failed);
  const listed =
    target.reading === true || ['scandir', 'opendir', 'read', 'stat', 'lstat'].includes(errno.syscall ?? '');
  const { what, fix } = reason({ failed, folder, subject: listed ? failed : folder, syscall: errno.syscall });
  const where = target.flag === undefined ? target.path : `${target.flag} ${target.path}`;
  const example =
    code === 'EISDIR' && target.example !== undefined
      ? `, e.g. ${target.flag === undefined ? '' : `${target.flag} `}${target.example}`
      : '';
  return new FileAccessError(target.path, `${where}: cannot ${target.doing}: ${what}`, {
    cause: error,
    hint: `${fix}${example}`,
  });
}

/** For `.catch(…)`: rethrows a file-system error as a FileAccessError naming `target`, anything else as it was. */
export function throwFileAccessError(target: FileTarget): (error: unknown) => never {
  return (error) => {
    throw toFileAccessError(error, target);
  };
}
