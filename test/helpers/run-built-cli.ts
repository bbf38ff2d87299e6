import { mkdtempSync, rmSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';

// The one way tests spawn the built CLI (bin/rocm-perf.js, which loads dist/), as users run it. The child gets a
// clean environment: PATH, NO_COLOR=1, LANG (when set here), a temporary HOME of its own and only what the test
// passes; never the developer's PERF_FLEET, PERF_ROOT, DOCKER_CONFIG, SSH_AUTH_SOCK or ~/.ssh. Never rejects: tests
// assert on exitCode, stdout and stderr.

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(repoRoot, 'bin/rocm-perf.js');

/** Fails with the fix when dist/ was not built (`npm run build`; `npm test` does it first). */
export async function assertCliBuilt(): Promise<void> {
  await stat(path.join(repoRoot, 'dist/cli.js')).catch(() => {
    throw new Error('dist/cli.js is missing: run `npm run build` first (npm test does)');
  });
}

let home: string | undefined;

/** An empty HOME for this test process's CLI children, removed when the process exits. */
function testHome(): string {
  if (home === undefined) {
    const dir = mkdtempSync(path.join(tmpdir(), 'rocm-perf-home-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    home = dir;
  }
  return home;
}

export interface RunBuiltCliOptions {
  /** A runs root: the working directory and PERF_ROOT (unless `cwd` or `env` say otherwise). */
  root?: string;
  /** The working directory; default `root`, else the repository. */
  cwd?: string;
  /** Variables on top of the clean environment (they may replace PATH or HOME). */
  env?: Record<string, string>;
  /** Node flags before the bin, e.g. `['--import', loader]`. */
  nodeArgs?: readonly string[];
  /** A file descriptor the child writes its stdout to instead of a pipe (then `stdout` reads as ''). */
  stdoutFd?: number;
  /** A command node runs under, e.g. `['strace', '-f', '-o', LOG]` (not with `stdoutFd`). */
  under?: readonly [string, ...string[]];
}

/** The environment a CLI child gets: nothing of this process's but PATH and LANG. */
function toCliEnv(options: Pick<RunBuiltCliOptions, 'root' | 'env'> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    ...(process.env.LANG === undefined ? {} : { LANG: process.env.LANG }),
    NO_COLOR: '1',
    HOME: testHome(),
    ...(options.root === undefined ? {} : { PERF_ROOT: options.root }),
    ...options.env,
  };
}

export function runBuiltCli(
  args: readonly string[],
  options: RunBuiltCliOptions = {},
): ResultPromise<{ reject: false }> {
  const spawnOptions = {
    reject: false,
    extendEnv: false,
    cwd: options.cwd ?? options.root ?? repoRoot,
    env: toCliEnv(options),
  } as const;
  const argv = [...(options.nodeArgs ?? []), bin, ...args];
  if (options.under !== undefined) {
    const [command, ...prefix] = options.under;
    return execa(command, [...prefix, process.execPath, ...argv], spawnOptions);
  }
  if (options.stdoutFd === undefined) return execa(process.execPath, argv, spawnOptions);
  // stdin closed and stdout on the descriptor itself, as `rocm-perf plan > /dev/full` runs. execa passes any
  // descriptor on; its types list only 3–9.
  const stdout = options.stdoutFd as unknown as 3;
  return execa(process.execPath, argv, {
    ...spawnOptions,
    stdin: 'ignore',
    stdout,
  }) as unknown as ResultPromise<{
    reject: false;
  }>;
}
