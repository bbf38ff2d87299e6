import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

// The shims as make really runs them: each perf-* target is run by GNU make with a stub in place of the CLI
// (ROCM_PERF=<stub>), its prerequisites assumed up to date (`-o`, so nothing is built), in the environment of a new
// user (PATH and HOME, none of the CLI's variables). The stub records the argv and the environment the CLI would
// have received. Only a recipe whose every command `make -n` prints is the stub itself is run for real.

const execFileAsync = promisify(execFile);

/** One call of the CLI from a shim: its arguments after the program, and its whole environment. */
export interface ShimCall {
  argv: string[];
  env: Record<string, string>;
}

export interface ShimRun {
  target: string;
  /** Variables given on make's command line (`make perf-cold PERF_ARCH=…`), as a user would. */
  given: Readonly<Record<string, string>>;
  calls: ShimCall[];
  /** Why the shim was not run (make failed, or its recipe runs more than the CLI). */
  failure?: string;
}

export interface ShimRunRequest {
  target: string;
  /** Its prerequisites, each passed to make as `-o` (assumed up to date). */
  prerequisites: readonly string[];
  given: Readonly<Record<string, string>>;
}

export interface RunMakefileShimsOptions {
  makefilePath: string;
  /** The variable that holds the CLI's command line (`ROCM_PERF`). */
  cliVariable: string;
  requests: readonly ShimRunRequest[];
  /** The CLI's environment: where make and HOME come from; nothing else of it reaches make. */
  env: Readonly<Record<string, string | undefined>>;
}

/** Records `$#`, each argument and the environment, NUL-separated, into a file of its own per call. */
const STUB = `#!/bin/sh
out=$(mktemp "$(dirname "$0")/call.XXXXXX") || exit 97
{ printf '%s\\0' "$#" "$@"; env -0; } > "$out"
`;

function parseCall(text: string): ShimCall {
  const fields = text.split('\0');
  const count = Number(fields[0]);
  const argv = fields.slice(1, 1 + count);
  const env: Record<string, string> = {};
  for (const entry of fields.slice(1 + count)) {
    const at = entry.indexOf('=');
    if (at > 0) env[entry.slice(0, at)] = entry.slice(at + 1);
  }
  return { argv, env };
}

async function make(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  return execFileAsync('make', args, { cwd, env, encoding: 'utf8', timeout: 30_000 }).then(
    ({ stdout }) => ({ ok: true as const, stdout, stderr: '' }),
    (error: { stdout?: string; stderr?: string; code?: unknown; message: string }) => ({
      ok: false as const,
      stdout: error.stdout ?? '',
      stderr: (error.stderr ?? '').trim() || error.message,
      missing: error.code === 'ENOENT',
    }),
  );
}

/** A recipe line that is the stub with plain words after it (no `;`, `&&`, `|`, `$(…)`, redirection). */
function isStubOnly(line: string, stubCommand: string): boolean {
  return line.startsWith(`${stubCommand} `) || line === stubCommand
    ? !/[;&|<>`$()]/.test(line.slice(stubCommand.length))
    : false;
}

async function runOne(
  request: ShimRunRequest,
  context: {
    dir: string;
    makefile: string;
    stubDir: string;
    stubCommand: string;
    cliVariable: string;
    env: NodeJS.ProcessEnv;
  },
): Promise<ShimRun> {
  const given = Object.entries(request.given).map(([name, value]) => `${name}=${value}`);
  const args = [
    '-s',
    '-f',
    context.makefile,
    ...request.prerequisites.flatMap((prerequisite) => ['-o', prerequisite]),
    request.target,
    `${context.cliVariable}=${context.stubCommand}`,
    ...given,
  ];
  const dry = await make(['-n', ...args], context.dir, context.env);
  if (!dry.ok) return { target: request.target, given: request.given, calls: [], failure: dry.stderr };
  const commands = dry.stdout.split('\n').filter((line) => line.trim() !== '');
  const other = commands.find((line) => !isStubOnly(line.trim(), context.stubCommand));
  if (other !== undefined)
    return {
      target: request.target,
      given: request.given,
      calls: [],
      failure: `its recipe runs more than the CLI (\`${other.trim()}\`), so it was not run`,
    };
  const real = await make(args, context.dir, context.env);
  const files = (await readdir(context.stubDir)).filter((name) => name.startsWith('call.')).sort();
  const calls = await Promise.all(
    files.map(async (name) => parseCall(await readFile(path.join(context.stubDir, name), 'utf8'))),
  );
  await Promise.all(files.map((name) => rm(path.join(context.stubDir, name))));
  return {
    target: request.target,
    given: request.given,
    calls,
    ...(real.ok ? {} : { failure: real.stderr }),
  };
}

async function mapInBatches<T, R>(
  items: readonly T[],
  size: number,
  run: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = [];
  for (let start = 0; start < items.length; start += size)
    out.push(...(await Promise.all(items.slice(start, start + size).map((item, i) => run(item, start + i)))));
  return out;
}

/** undefined when no `make` can be run here (the static checks still apply). */
export async function runMakefileShims(options: RunMakefileShimsOptions): Promise<ShimRun[] | undefined> {
  // Only where make is found and a home: handed to make, not settings of the CLI.
  const { PATH: searchPath, HOME: home } = options.env;
  const userEnv: NodeJS.ProcessEnv = { PATH: searchPath ?? '/usr/bin:/bin', HOME: home ?? tmpdir() };
  const probe = await make(['--version'], tmpdir(), userEnv);
  if (!probe.ok) return undefined;
  const scratch = await mkdtemp(path.join(tmpdir(), 'rocm-perf-shims-'));
  try {
    // A few side by side (each request's stub writes its calls into a folder of its own).
    return await mapInBatches(options.requests, 4, async (request, index) => {
      const stubDir = path.join(scratch, String(index));
      await mkdir(stubDir);
      const stub = path.join(stubDir, 'rocm-perf-stub');
      await writeFile(stub, STUB, { mode: 0o755 });
      return runOne(request, {
        dir: path.dirname(options.makefilePath),
        makefile: path.basename(options.makefilePath),
        stubDir,
        // Through sh: a temp dir may be mounted noexec.
        stubCommand: `/bin/sh ${stub}`,
        cliVariable: options.cliVariable,
        env: userEnv,
      });
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
