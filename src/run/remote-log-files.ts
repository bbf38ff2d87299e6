import path from 'node:path';
import { LogCaptureError, RemoteCommandError } from '../shared/errors.js';
import type { Compression, RemoteFileRecord } from './log-rotation/index.js';
import { FINGERPRINT_LIMIT_BYTES, parseFileRecords } from './log-rotation/index.js';
import { quoteShell, type RemoteHost } from './executors/remote-host.js';

// The shell commands log capture runs on the store host (POSIX sh, coreutils): a log's size, a byte range of it,
// the listing of the log and its rotated siblings with their first lines, and a rotated file read through its
// `-dc` tool.

const decompressors: Record<Compression, string> = {
  gz: 'gzip -dc',
  xz: 'xz -dc',
  bz2: 'bzip2 -dc',
  zst: 'zstd -dcq',
};

/** Marks a decompressor failure on stderr: in `tool | tail` only tail's exit status reaches us. */
const failureMarker = 'rocm-perf: decompress failed:';

export function buildSizeCommand(remotePath: string): string {
  return `wc -c < ${quoteShell(remotePath)}`;
}

/** Bytes [from, to) of a remote file. */
export function buildRangeCommand(remotePath: string, from: number, to: number): string {
  return `tail -c +${from + 1} ${quoteShell(remotePath)} | head -c ${Math.max(0, to - from)}`;
}

/**
 * Per file, `name\0inode size\0base64(first line)\0` (parseFileRecords): the log alone, or with `siblings` every
 * `<log>.*` and `<log>-*` beside it (`.1`, `.2.gz`, `-20250101.xz`), compressed ones read through their tool.
 */
export function buildListCommand(remotePath: string, { siblings }: { siblings: boolean }): string {
  const base = quoteShell(path.posix.basename(remotePath));
  const patterns = siblings ? `${base} ${base}.* ${base}-*` : base;
  const cases = Object.entries(decompressors)
    .map(([extension, tool]) => `*.${extension}) d='${tool}';;`)
    .join(' ');
  return [
    `cd -- ${quoteShell(path.posix.dirname(remotePath))} || exit 2`,
    `for f in ${patterns}; do`,
    '  [ -f "$f" ] || continue',
    `  s=$(stat -L -c '%i %s' -- "$f") || continue`,
    `  case "$f" in ${cases} *) d=cat;; esac`,
    `  printf '%s\\0%s\\0' "$f" "$s"`,
    `  $d -- "$f" 2>/dev/null | head -c ${FINGERPRINT_LIMIT_BYTES} | head -n 1 | base64 | tr -d '\\n'`,
    `  printf '\\0'`,
    'done',
  ].join('\n');
}

/** A rotated file's (decompressed) bytes from `fromOffset` to its end. */
export function buildReadFileCommand(
  filePath: string,
  compression: Compression | undefined,
  fromOffset: number,
): string {
  const tail = `tail -c +${fromOffset + 1}`;
  if (compression === undefined) return `${tail} -- ${quoteShell(filePath)}`;
  const tool = decompressors[compression];
  return `{ ${tool} -- ${quoteShell(filePath)} || echo "${failureMarker} ${tool} exited $?" >&2; } | ${tail}`;
}

interface CheckedRun {
  command: string;
  remotePath: string;
  /** What failed, e.g. `cannot read the size of`. */
  what: string;
  /** How to mend it; given the failure's detail (stderr tail) when it depends on it. */
  fix: string | ((detail: string) => string);
  timeoutMs: number;
}

async function runChecked(host: RemoteHost, run: CheckedRun): Promise<Buffer> {
  const fail = (detail: string, cause?: unknown) => {
    const fix = typeof run.fix === 'string' ? run.fix : run.fix(detail);
    const message = `${host.label}: ${run.what} ${run.remotePath} (${detail}); ${fix}`;
    return new LogCaptureError(run.remotePath, message, { cause });
  };
  const result = await host.run(run.command, { timeoutMs: run.timeoutMs }).catch((error: unknown) => {
    throw fail((error as Error).message, error);
  });
  const detail = result.stderr.trim().split('\n').slice(-3).join(' ') || `exit ${result.exitCode}`;
  // No exit code: the session ended under the command (sshd restarted, link dropped), not the command failing.
  if (result.exitCode === null)
    throw fail(
      detail,
      new RemoteCommandError({
        host: host.label,
        command: run.command,
        exitCode: undefined,
        stderrTail: detail,
      }),
    );
  if (result.exitCode !== 0 || result.stderr.includes(failureMarker)) throw fail(detail);
  return result.stdout;
}

export function runRemoteRange(
  host: RemoteHost,
  remotePath: string,
  from: number,
  to: number,
): Promise<Buffer> {
  return runChecked(host, {
    command: buildRangeCommand(remotePath, from, to),
    remotePath,
    what: `cannot read bytes ${from}–${to} of`,
    fix: 'check that the host is reachable and the ssh user may read the log',
    timeoutMs: 300_000,
  });
}

/** The log (and with `siblings` its rotated copies), each with inode, size and first line. */
export async function runListLogFiles(
  host: RemoteHost,
  remotePath: string,
  options: { siblings: boolean },
): Promise<RemoteFileRecord[]> {
  const stdout = await runChecked(host, {
    command: buildListCommand(remotePath, options),
    remotePath,
    what: options.siblings ? 'cannot list the rotated copies of' : 'cannot stat',
    fix: 'check that the log directory exists and the ssh user may read it (stat, head and base64 must be on PATH)',
    timeoutMs: 60_000,
  });
  const records = parseFileRecords(stdout);
  if (typeof records === 'string')
    throw new LogCaptureError(
      remotePath,
      `${host.label}: the file listing beside ${remotePath} is garbled: ${records}`,
    );
  return records;
}

/** A rotated copy's bytes from `fromOffset` on, decompressed with its tool on the host. */
export function runReadRotatedFile(
  host: RemoteHost,
  record: Pick<RemoteFileRecord, 'name' | 'compression'>,
  logPath: string,
  fromOffset: number,
): Promise<Buffer> {
  const filePath = path.posix.join(path.posix.dirname(logPath), record.name);
  const tool = record.compression === undefined ? 'tail' : decompressors[record.compression].split(' ')[0];
  return runChecked(host, {
    command: buildReadFileCommand(filePath, record.compression, fromOffset),
    remotePath: filePath,
    what: 'cannot read the rotated log',
    fix: (detail) =>
      record.compression === undefined
        ? 'check that the ssh user may read it'
        : /exited 127|not found/.test(detail)
          ? `install ${tool} on the host`
          : 'the file is damaged or was still being compressed',
    timeoutMs: 300_000,
  });
}
