import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { execa } from 'execa';
import { z } from 'zod';
import { parseJsonObject } from '../../collect/index.js';
import { toBuildxCommand } from './buildx-command.js';
import { isRunningRecord } from './history-record.js';

// The only real buildx caller besides `bake --print`: bake a target, inspect a builder, fetch a build record's
// trace. Each call runs `docker buildx …`, or the standalone binary `buildx` names (toBuildxCommand). Expected
// failures come back as values (reject: false).

/** Which buildx every call runs: a standalone binary's path, or undefined for `docker buildx`. */
export interface BuildxBinary {
  buildx?: string | undefined;
}

interface BakeArgsOptions {
  builder: string;
  target: string;
  metadataFile: string;
  bakeFile?: string | undefined;
  noCache: boolean;
  clearCacheTo: boolean;
  sccachePrefix?: string | undefined;
  /** Further `--set` values (namespace and published inputs), after the ones above. */
  overrides?: readonly string[];
  push: boolean;
}

/** Pure: the buildx arguments (after `buildx`) for one target's bake. @internal */
export function buildBakeArgs(options: BakeArgsOptions): string[] {
  const args = ['bake'];
  if (options.bakeFile) args.push('-f', options.bakeFile);
  args.push('--builder', options.builder, '--metadata-file', options.metadataFile, '--progress=rawjson');
  if (options.noCache) args.push('--no-cache');
  if (options.clearCacheTo) args.push('--set', '*.cache-to=');
  if (options.sccachePrefix !== undefined)
    args.push('--set', `*.args.SCCACHE_WEBDAV_KEY_PREFIX=${options.sccachePrefix}`);
  for (const value of options.overrides ?? []) args.push('--set', value);
  if (options.push) args.push('--push');
  args.push(options.target);
  return args;
}

export interface CommandOutcome {
  ok: boolean;
  exitCode: number | null;
  command: string;
  /** The last lines of human-readable stderr (JSON status lines excluded), for error messages. */
  errorTail: string;
  stdout: string;
}

export interface RunBakeOptions extends BakeArgsOptions, BuildxBinary {
  cwd: string;
  env: Record<string, string>;
  /** The rawjson status stream (stderr) is written here. */
  statusFile: string;
  signal: AbortSignal;
  /** Sees each chunk of the status stream as it goes to the file (a run's digest of status-<target>.jsonl). */
  onStatusBytes?: ((bytes: Uint8Array) => void) | undefined;
  /** A failed write of the status file (the build goes on; the file keeps what was written). */
  onWriteError?: (file: string, error: unknown) => void;
}

/** Non-JSON stderr lines and vertex errors: what a person needs to see when a build fails. @internal */
export function collectErrorLine(line: string, tail: string[]): void {
  const trimmed = line.trim();
  if (trimmed === '') return;
  if (trimmed.startsWith('{')) {
    const match = /"error":"((?:[^"\\]|\\.)+)"/.exec(trimmed);
    if (match?.[1]) tail.push(JSON.parse(`"${match[1]}"`) as string);
  } else tail.push(trimmed);
  if (tail.length > 12) tail.splice(0, tail.length - 12);
}

export async function runBake(options: RunBakeOptions): Promise<CommandOutcome> {
  const { file, args, command } = toBuildxCommand(options.buildx, buildBakeArgs(options));
  const subprocess = execa(file, args, {
    cwd: options.cwd,
    env: options.env,
    extendEnv: true,
    reject: false,
    cancelSignal: options.signal,
    forceKillAfterDelay: 10_000,
    buffer: { stdout: true, stderr: false },
    stdin: 'ignore',
  });
  const statusStream = createWriteStream(options.statusFile);
  statusStream.on('error', (error) => {
    subprocess.stderr.unpipe(statusStream);
    options.onWriteError?.(options.statusFile, error);
  });
  const tail: string[] = [];
  subprocess.stderr.pipe(statusStream);
  if (options.onStatusBytes)
    subprocess.stderr.on('data', (chunk: Uint8Array) => options.onStatusBytes?.(chunk));
  const lines = createInterface({ input: subprocess.stderr, crlfDelay: Infinity });
  lines.on('line', (line) => collectErrorLine(line, tail));
  const result = await subprocess;
  await finished(statusStream).catch(() => undefined);
  const ok = !result.failed && result.exitCode === 0;
  const why = result.isCanceled ? 'cancelled' : result.timedOut ? 'timed out' : undefined;
  return {
    ok,
    exitCode: result.exitCode ?? null,
    command,
    errorTail: [why, ...tail].filter(Boolean).join('\n'),
    stdout: String(result.stdout ?? ''),
  };
}

async function runBuildx(
  buildxArgs: string[],
  options: BuildxBinary & { timeoutMs: number; signal?: AbortSignal },
): Promise<CommandOutcome> {
  const { file, args, command } = toBuildxCommand(options.buildx, buildxArgs);
  const result = await execa(file, args, {
    reject: false,
    timeout: options.timeoutMs,
    ...(options.signal ? { cancelSignal: options.signal } : {}),
    stdin: 'ignore',
  });
  return {
    ok: !result.failed && result.exitCode === 0,
    exitCode: result.exitCode ?? null,
    command,
    errorTail:
      (result.timedOut ? `timed out after ${options.timeoutMs} ms\n` : '') +
      String(result.stderr ?? '')
        .trim()
        .split('\n')
        .slice(-6)
        .join('\n'),
    stdout: String(result.stdout ?? ''),
  };
}

/** Preflight: which buildx this workstation has. */
export function runBuildxVersion({ buildx, timeoutMs = 15_000 }: BuildxBinary & { timeoutMs?: number } = {}) {
  return runBuildx(['version'], { buildx, timeoutMs });
}

/** The arguments of preflight's builder check (also quoted when the probe itself throws). */
export const toInspectArgs = (builder: string): string[] => ['inspect', '--bootstrap', '--builder', builder];

/** Preflight: the builder answers and its nodes start. */
export function runBuildxInspect(
  builder: string,
  { buildx, timeoutMs = 60_000 }: BuildxBinary & { timeoutMs?: number } = {},
): Promise<CommandOutcome> {
  return runBuildx(toInspectArgs(builder), { buildx, timeoutMs });
}

/**
 * After the run: one attachment of a build record, raw (`history inspect attachment --type <predicate type>`). For
 * provenance, the predicate JSON as BuildKit stored it: SLSA v1 (`https://slsa.dev/provenance/v1`, BuildKit ≥ 0.28's
 * default) or v0.2. buildx v0.23.0's `--type provenance` matches v0.2 only, so the full predicate type is passed.
 */
export function runHistoryAttachment(
  options: BuildxBinary & { builder: string; buildRef: string; type: string },
) {
  return runBuildx(
    [
      'history',
      'inspect',
      'attachment',
      '--builder',
      options.builder,
      toHistoryId(options.buildRef),
      '--type',
      options.type,
    ],
    { buildx: options.buildx, timeoutMs: 60_000 },
  );
}

/** Before the measured run: the builder's build cache records, one `Key: value` block each (builder identity). */
export function runBuildxDu(
  builder: string,
  { buildx, timeoutMs = 60_000 }: BuildxBinary & { timeoutMs?: number } = {},
): Promise<CommandOutcome> {
  return runBuildx(['du', '--builder', builder, '--verbose'], { buildx, timeoutMs });
}

/** Preflight: the builder serves the build-history API (BuildKit ≥ 0.11 answers; older says Unimplemented). */
export function runHistoryList(
  builder: string,
  { buildx, timeoutMs = 30_000 }: BuildxBinary & { timeoutMs?: number } = {},
): Promise<CommandOutcome> {
  return runBuildx(toHistoryListArgs(builder), { buildx, timeoutMs });
}

/** The arguments of preflight's build-history check (also quoted when the probe itself throws). */
export const toHistoryListArgs = (builder: string): string[] => [
  'history',
  'ls',
  '--builder',
  builder,
  '--format',
  'json',
];

/** `buildx.build.ref` is `<builder>/<node>/<id>`; history commands take the bare id. */
export function toHistoryId(buildRef: string): string {
  return buildRef.split('/').at(-1) ?? buildRef;
}

export interface FetchTraceOptions extends BuildxBinary {
  builder: string;
  buildRef: string;
  /** Bounded: attempts × delay. BuildKit saves a trace up to 3 s after the build. */
  attempts?: number;
  retryDelayMs?: number;
  signal?: AbortSignal;
}

/** The arguments of `history trace` for one record (also quoted where a trace could not be saved). */
export const toTraceArgs = (builder: string, id: string): string[] => [
  'history',
  'trace',
  '--builder',
  builder,
  id,
];

/**
 * Waits until the record is no longer running (`history inspect`), then fetches its trace
 * (`history trace` prints Jaeger JSON when stdout is not a TTY; it finalizes the record itself),
 * retrying a bounded number of times while the trace is missing.
 */
export async function runHistoryTrace(options: FetchTraceOptions): Promise<CommandOutcome> {
  const { builder, buildRef, buildx, attempts = 5, retryDelayMs = 1_000 } = options;
  const id = toHistoryId(buildRef);
  let last: CommandOutcome | undefined;
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (attempt > 0) await delay(retryDelayMs * attempt);
    const inspect = await runBuildx(['history', 'inspect', '--builder', builder, '--format', 'json', id], {
      buildx,
      timeoutMs: 30_000,
    });
    if (inspect.ok && isRunningRecord(inspect.stdout)) continue;
    last = await runBuildx(toTraceArgs(builder, id), { buildx, timeoutMs: 60_000 });
    if (last.ok && last.stdout.trim().startsWith('{')) return last;
  }
  return (
    last ?? {
      ok: false,
      exitCode: null,
      command: toBuildxCommand(buildx, toTraceArgs(builder, id)).command,
      errorTail: 'the record was still running',
      stdout: '',
    }
  );
}

export interface FailedRecordQuery extends BuildxBinary {
  builder: string;
  /** When the failed bake started (this machine's clock). */
  sinceMs: number;
  /** Which record: one that ended in error (default), or one cancelled by the interrupt. */
  status?: 'error' | 'canceled';
  /** Clock difference tolerated between this machine and the builder's node; default 60 s. */
  skewMs?: number;
}

const HistoryLsLineSchema = z.looseObject({ ref: z.string(), created_at: z.string(), status: z.string() });

/**
 * `history ls` shows `Running`, `Completed` or `Error`: a cancelled build is `Error` too (buildx v0.36.1 with
 * BuildKit v0.32.2); only `--filter status=canceled` tells the two apart. `Canceled` is accepted as well.
 */
const endedBadly: ReadonlySet<string> = new Set(['error', 'canceled', 'cancelled']);

/**
 * Pure: the full ref of the failed build record a bake that started at `sinceMs` left, from `history ls --format
 * json --filter status=error|canceled` output (the filter, not the shown status, tells failed from cancelled).
 * The one error record created since the bake started; else, allowing for clock skew, the one created
 * since `sinceMs - skewMs`; never a guess between several (a reason instead).
 * @internal
 */
export function pickFailedRecord(
  stdout: string,
  { sinceMs, skewMs = 60_000, status = 'error' }: Omit<FailedRecordQuery, 'builder' | 'buildx'>,
): { ref: string } | { reason: string } {
  const what = status === 'error' ? 'failed' : 'cancelled';
  const records = stdout
    .split('\n')
    .filter((line) => line.trim().startsWith('{'))
    .flatMap((line) => {
      const parsed = HistoryLsLineSchema.safeParse(parseJsonObject(line));
      const createdMs = parsed.success ? Date.parse(parsed.data.created_at) : Number.NaN;
      return parsed.success && endedBadly.has(parsed.data.status.toLowerCase()) && Number.isFinite(createdMs)
        ? [{ ref: parsed.data.ref, createdMs }]
        : [];
    });
  for (const fromMs of [sinceMs, sinceMs - skewMs]) {
    const since = records.filter((record) => record.createdMs >= fromMs);
    if (since.length === 1 && since[0]) return { ref: since[0].ref };
    if (since.length > 1)
      return {
        reason: `${since.length} ${what} build records since the bake started; not guessing which is this target's`,
      };
  }
  return { reason: `no ${what} build record since the bake started` };
}

/**
 * A failed or cancelled bake writes no metadata file, so its build record is looked up in the builder's history
 * (`history ls --filter status=error|canceled --format json`); BuildKit keeps a cancelled build's partial trace.
 */
export async function findFailedBuildRef(
  query: FailedRecordQuery,
): Promise<{ ref: string } | { reason: string }> {
  const outcome = await runBuildx(
    [
      'history',
      'ls',
      '--builder',
      query.builder,
      '--filter',
      `status=${query.status ?? 'error'}`,
      '--format',
      'json',
      '--no-trunc',
    ],
    { buildx: query.buildx, timeoutMs: 30_000 },
  );
  if (!outcome.ok)
    return { reason: `\`${outcome.command}\` failed: ${outcome.errorTail.split('\n').at(-1) ?? ''}` };
  return pickFailedRecord(outcome.stdout, query);
}

/** One target's bake: runBake, or a fake in tests (the harness's effects). */
export type Bake = (options: RunBakeOptions) => Promise<CommandOutcome>;

/** Looks up the build record a failed bake left (it writes no metadata file); see findFailedBuildRef. */
export type FindFailedBuild = typeof findFailedBuildRef;

/** `buildx history inspect attachment` of one record (effects, so tests can fake it). */
export type FetchAttachment = typeof runHistoryAttachment;
