import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The built CLI started under GNU time (its ru_maxrss of the node process is the exact peak, even for the last
// second before exit that a 1 s /proc sampler can miss), with the node process's own pid found for /proc.

const repoRoot = path.resolve(import.meta.dirname, '../..');
const bin = path.join(repoRoot, 'bin/rocm-perf.js');

export interface MeasuredCli {
  /** GNU time's process (the wrapper). */
  wrapper: ChildProcess;
  /** The node process running rocm-perf. */
  pid: number;
  exited: Promise<number | null>;
  /** Peak RSS in MiB as the kernel counted it (wait4's ru_maxrss), once exited. */
  readMaxRssMiB: () => number | undefined;
  stdoutPath: string;
  stderrPath: string;
}

function findChildPid(parent: number): number | undefined {
  const file = `/proc/${parent}/task/${parent}/children`;
  if (!existsSync(file)) return undefined;
  const child = readFileSync(file, 'utf8').trim().split(/\s+/)[0];
  return child ? Number(child) : undefined;
}

export async function spawnMeasuredCli(options: {
  name: string;
  args: readonly string[];
  env: Record<string, string>;
  logDir: string;
}): Promise<MeasuredCli> {
  const timePath = path.join(options.logDir, `${options.name}.time`);
  const stdoutPath = path.join(options.logDir, `${options.name}.stdout`);
  const stderrPath = path.join(options.logDir, `${options.name}.stderr`);
  const wrapper = spawn('/usr/bin/time', ['-f', '%M', '-o', timePath, 'node', bin, ...options.args], {
    cwd: repoRoot,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  wrapper.stdout.pipe(createWriteStream(stdoutPath));
  wrapper.stderr.pipe(createWriteStream(stderrPath));
  const exited = new Promise<number | null>((resolve) => wrapper.on('exit', (code) => resolve(code)));
  let pid: number | undefined;
  for (let i = 0; i < 200 && pid === undefined; i++) {
    pid = wrapper.pid === undefined ? undefined : findChildPid(wrapper.pid);
    if (pid === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  if (pid === undefined)
    throw new Error(`${options.name}: could not find the node process under /usr/bin/time`);
  return {
    wrapper,
    pid,
    exited,
    stdoutPath,
    stderrPath,
    readMaxRssMiB: () => {
      const text = existsSync(timePath)
        ? readFileSync(timePath, 'utf8').trim().split('\n').at(-1)
        : undefined;
      return text && /^\d+$/.test(text) ? Number(text) / 1024 : undefined;
    },
  };
}

/** Resolves with the first stdout line matching `pattern` (serve prints its URL there). */
export async function waitForLine(cli: MeasuredCli, pattern: RegExp, timeoutMs: number): Promise<string> {
  const file = cli.stdoutPath;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (cli.wrapper.exitCode !== null)
      throw new Error(`exited ${cli.wrapper.exitCode}: ${readFileSync(cli.stderrPath, 'utf8').slice(-2000)}`);
    const line = existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .find((l) => pattern.test(l))
      : undefined;
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no line matching ${String(pattern)} in ${file} within ${timeoutMs} ms`);
}
