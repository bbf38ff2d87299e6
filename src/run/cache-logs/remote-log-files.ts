import path from 'node:path';
import { LogCaptureError, RemoteCommandError } from '../../shared/errors.js';
import type { Compression, RemoteFileRecord } from './log-rotation/index.js';
import { FINGERPRINT_LIMIT_BYTES, parseFileRecords } from './log-rotation/index.js';
import { quoteShell, type RemoteHost } from '../executors/index.js';
import { errorMessage } from '../../shared/error-message.js';

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

function buildSizeCommand(remotePath: string): string {
  return `wc -c < ${quoteShell(remotePath)}`;
}

/** The tools the capture's commands use on the log host (POSIX sh plus GNU coreutils). @internal */
export const LOG_HOST_TOOLS = ['stat', 'head', 'tail', 'wc', 'base64', 'sha256sum', 'split'] as const;

/**
 * Preflight on the log host: every tool the capture uses is there (split with GNU's --filter), then the log's size.
 * A missing tool is named on stderr, exit 3.
 */
export function buildLogHostCheckCommand(remotePath: string): string {
  return [
    `missing=''; for t in ${LOG_HOST_TOOLS.join(' ')}; do command -v "$t" >/dev/null 2>&1 || missing="$missing $t"; done`,
    // split's own words go into the message: BusyBox's "unrecognized option" reads differently from a split that
    // started its filter and saw it fail.
    // Its first line by parameter expansion: a second tool could fail the same way and hide it.
    `nl='
'; said=$(printf x | split -b 1 --filter=cat 2>&1 >/dev/null) || { missing="$missing split--filter"; said="; split -b 1 --filter=cat said: \${said%%"$nl"*}"; }`,
    `if [ -n "$missing" ]; then echo "missing on the log host:$missing (the capture needs GNU coreutils$said)" >&2; exit 3; fi`,
    buildSizeCommand(remotePath),
  ].join('\n');
}

/** Bytes [from, to) of a remote file. @internal */
export function buildRangeCommand(remotePath: string, from: number, to: number): string {
  return `tail -c +${from + 1} ${quoteShell(remotePath)} | head -c ${Math.max(0, to - from)}`;
}

/**
 * Per file, `name\0inode size\0base64(first line)\0` (parseFileRecords): the log alone, or with `siblings` every
 * `<log>.*` and `<log>-*` beside it (`.1`, `.2.gz`, `-20250101.xz`), compressed ones read through their tool.
 */
function buildListCommand(remotePath: string, { siblings }: { siblings: boolean }): string {
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
function buildReadFileCommand(
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
    throw fail(errorMessage(error), error);
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

/**
 * A file on the host holding a generation of the log: the log itself (read up to `endOffset`, the size a poll saw,
 * since it keeps growing) or a rotated copy beside it (read to its end, through its decompressor).
 */
export interface RemoteCopy {
  path: string;
  compression?: Compression | undefined;
  endOffset?: number | undefined;
}

/** Bytes compared per digest when the run-dir copy is checked against the host's file. */
export const DIGEST_BLOCK_BYTES = 1_048_576;

/** A shell command printing the copy's (decompressed) bytes from `fromOffset` on. */
function buildCopyReadCommand(copy: RemoteCopy, fromOffset: number): string {
  return copy.endOffset !== undefined && copy.compression === undefined
    ? buildRangeCommand(copy.path, fromOffset, copy.endOffset)
    : buildReadFileCommand(copy.path, copy.compression, fromOffset);
}

/**
 * The copy's length from `fromOffset` on, then a SHA-256 per block of its first min(length, `limitBytes`) bytes.
 * The read is drained to its end (`cat >/dev/null`), so a decompressor is never cut short by a closed pipe, which
 * would look like a damaged file.
 */
function buildDigestCommand(copy: RemoteCopy, fromOffset: number, limitBytes: number): string {
  const read = buildCopyReadCommand(copy, fromOffset);
  return [
    `n=$(${read} | wc -c) || exit 3`,
    `m=$n; if [ "$m" -gt ${limitBytes} ]; then m=${limitBytes}; fi`,
    `${read} | { head -c "$m" | split -b ${DIGEST_BLOCK_BYTES} --filter=sha256sum; cat >/dev/null; }`,
    `printf 'length %s\\n' "$n"`,
  ].join('\n');
}

export interface RemoteDigest {
  /** Bytes the copy holds from the offset on. */
  lengthBytes: number;
  /** SHA-256 (hex) of each DIGEST_BLOCK_BYTES block of the first min(lengthBytes, limit) bytes; the last may be short. */
  blockDigests: string[];
}

/** buildDigestCommand's output → its digests, or what is wrong with it. @internal */
export function parseDigestOutput(stdout: string): RemoteDigest | string {
  const lines = stdout.split('\n').filter((line) => line !== '');
  const last = /^length (\d+)$/.exec(lines.at(-1) ?? '');
  if (!last) return `no "length N" line at the end (got ${JSON.stringify(stdout.slice(-80))})`;
  const blockDigests: string[] = [];
  for (const line of lines.slice(0, -1)) {
    const digest = /^([0-9a-f]{64}) {2}-$/.exec(line);
    if (!digest) return `not a sha256sum line: ${JSON.stringify(line.slice(0, 80))}`;
    blockDigests.push(digest[1] as string);
  }
  return { lengthBytes: Number(last[1]), blockDigests };
}

function copyFailure(copy: RemoteCopy, fromOffset: number): Pick<CheckedRun, 'what' | 'fix'> {
  const rotated = copy.endOffset === undefined;
  const tool = copy.compression === undefined ? 'tail' : decompressors[copy.compression].split(' ')[0];
  return {
    what: rotated ? 'cannot read the rotated log' : `cannot read from offset ${fromOffset} of`,
    fix: (detail) =>
      copy.compression === undefined
        ? 'check that the host is reachable and the ssh user may read it'
        : /exited 127|not found/.test(detail)
          ? `install ${tool} on the host`
          : 'the file is damaged or was still being compressed',
  };
}

/** Length and block digests of a copy from `fromOffset` on, over at most `limitBytes` (sha256sum and split on the host). */
export async function runRemoteDigest(
  host: RemoteHost,
  copy: RemoteCopy,
  fromOffset: number,
  limitBytes: number,
): Promise<RemoteDigest> {
  const stdout = await runChecked(host, {
    command: buildDigestCommand(copy, fromOffset, limitBytes),
    remotePath: copy.path,
    ...copyFailure(copy, fromOffset),
    timeoutMs: 300_000,
  });
  const digest = parseDigestOutput(stdout.toString('latin1'));
  if (typeof digest === 'string')
    throw new LogCaptureError(
      copy.path,
      `${host.label}: the digests of ${copy.path} are garbled (${digest}); sha256sum, split (GNU coreutils) and wc must be on PATH`,
    );
  return digest;
}

/** A copy's bytes from `fromOffset` on: to its end, or at most `maxBytes` of them. */
export function runReadCopy(
  host: RemoteHost,
  copy: RemoteCopy,
  fromOffset: number,
  maxBytes?: number,
): Promise<Buffer> {
  const read = buildCopyReadCommand(copy, fromOffset);
  return runChecked(host, {
    command: maxBytes === undefined ? read : `${read} | { head -c ${maxBytes}; cat >/dev/null; }`,
    remotePath: copy.path,
    ...copyFailure(copy, fromOffset),
    timeoutMs: 300_000,
  });
}
