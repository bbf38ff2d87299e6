// One error base class with stable codes; the only catch is in cli.ts.

/** Exit codes: 0 ok, 1 completed with failures, 2 usage/config/known fatal, 130 interrupted. */
export const ExitCode = { ok: 0, failures: 1, fatal: 2, interrupted: 130 } as const;

export interface RocmPerfErrorOptions {
  hint?: string;
  cause?: unknown;
  exitCode?: number;
}

export class RocmPerfError extends Error {
  readonly code: string;
  readonly exitCode: number;
  readonly hint: string | undefined;

  constructor(code: string, message: string, options: RocmPerfErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.exitCode = options.exitCode ?? ExitCode.fatal;
    this.hint = options.hint;
  }
}

export class UsageError extends RocmPerfError {
  constructor(message: string, options: RocmPerfErrorOptions = {}) {
    super('ROCMPERF_USAGE', message, options);
  }
}

/** A config file (fleet.yaml, target-costs, bake print) failed validation; `errors` holds one line per problem. */
export class ConfigError extends RocmPerfError {
  readonly errors: readonly string[];

  constructor(source: string, errors: readonly string[], options: RocmPerfErrorOptions = {}) {
    const plural = errors.length === 1 ? 'problem' : 'problems';
    super('ROCMPERF_CONFIG_INVALID', `${source}: ${errors.length} ${plural}\n  ${errors.join('\n  ')}`, {
      hint: 'nothing was started; fix the lines above and run again',
      ...options,
    });
    this.errors = errors;
  }
}

/** A file one command wrote for another is missing, unreadable or of another version. */
export class ArtifactError extends RocmPerfError {
  readonly path: string;

  constructor(path: string, message: string, options: RocmPerfErrorOptions = {}) {
    super('ROCMPERF_ARTIFACT_INVALID', `${path}: ${message}`, options);
    this.path = path;
  }
}

export interface RemoteCommandDetails {
  host: string;
  command: string;
  exitCode: number | undefined;
  stderrTail: string;
}

export class RemoteCommandError extends RocmPerfError {
  readonly details: RemoteCommandDetails;

  constructor(details: RemoteCommandDetails, options: RocmPerfErrorOptions = {}) {
    const tail = details.stderrTail.trim() ? `: ${details.stderrTail.trim()}` : '';
    super(
      'ROCMPERF_REMOTE_COMMAND',
      `${details.host}: \`${details.command}\` exited ${details.exitCode ?? 'without a code'}${tail}`,
      options,
    );
    this.details = details;
  }
}

/** A cache log (or a rotated copy of it) on a remote host could not be listed or read; names the file and the fix. */
export class LogCaptureError extends RocmPerfError {
  readonly remotePath: string;

  constructor(remotePath: string, message: string, options: RocmPerfErrorOptions = {}) {
    super('ROCMPERF_LOG_CAPTURE', message, options);
    this.remotePath = remotePath;
  }
}

export class HttpError extends RocmPerfError {
  readonly url: string;
  readonly status: number | undefined;

  constructor(url: string, status: number | undefined, message: string, options: RocmPerfErrorOptions = {}) {
    super('ROCMPERF_HTTP', `${url}: ${message}`, options);
    this.url = url;
    this.status = status;
  }
}

/** A stream or file could not be parsed; `line` is 1-based when known. */
export class ParseError extends RocmPerfError {
  readonly source: string;
  readonly line: number | undefined;

  constructor(source: string, line: number | undefined, message: string, options: RocmPerfErrorOptions = {}) {
    super('ROCMPERF_PARSE', `${source}${line === undefined ? '' : `:${line}`}: ${message}`, options);
    this.source = source;
    this.line = line;
  }
}

/** Preflight or a run found problems before anything was started; `problems` lists every one. */
export class PreflightError extends RocmPerfError {
  readonly problems: readonly string[];

  constructor(problems: readonly string[], options: RocmPerfErrorOptions = {}) {
    super(
      'ROCMPERF_PREFLIGHT',
      `preflight found ${problems.length} problem(s); nothing was started\n  ${problems.join('\n  ')}`,
      options,
    );
    this.problems = problems;
  }
}

/** A file or folder the user named cannot be read or written (missing folder, permissions, read-only, disk full). */
export class FileAccessError extends RocmPerfError {
  readonly path: string;

  constructor(path: string, message: string, options: RocmPerfErrorOptions = {}) {
    super('ROCMPERF_FILE_ACCESS', message, options);
    this.path = path;
  }
}

/** `serve` cannot listen where it was told: the port is taken or not allowed, or the address is not this host's. */
export class ListenError extends RocmPerfError {
  constructor(message: string, options: RocmPerfErrorOptions = {}) {
    super('ROCMPERF_LISTEN', message, options);
  }
}

export class InternalError extends RocmPerfError {
  constructor(message: string, options: RocmPerfErrorOptions = {}) {
    super('ROCMPERF_INTERNAL', message, options);
  }
}

export function isRocmPerfError(error: unknown): error is RocmPerfError {
  return error instanceof RocmPerfError;
}
