// Spawns a daemon (optionally inside a network namespace), waits until it is ready, and stops it again.
// Output goes to a log file (not a pipe), so the daemon never blocks on a full pipe and the tail can be shown
// when it fails to start.
import { execFile, spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { promisify } from 'node:util';
import { registerResource } from './cleanup-registry.js';

const execFileAsync = promisify(execFile);

export interface StartDaemonOptions {
  /** A short name for messages, e.g. `nginx`. */
  name: string;
  command: string;
  args: readonly string[];
  /** Run inside `ip netns exec <netns>`. */
  netns?: string | undefined;
  /**
   * Enter the netns with `nsenter --net` instead: the host's /sys stays (ip netns exec mounts a /sys of its own,
   * which hides /sys/fs/cgroup), as a node's own sshd sees its host's cgroups (the step-usage poll reads them).
   */
  keepHostSys?: boolean;
  /** stdout and stderr are appended here. */
  logPath: string;
  env?: NodeJS.ProcessEnv;
  /** Resolves true once the daemon (process group `pid`) serves. */
  isReady: (pid: number) => Promise<boolean>;
  timeoutMs?: number;
}

export interface DaemonProcess {
  pid: number;
  logPath: string;
  /** Whether the process has exited. */
  hasExited: () => boolean;
  stop: () => Promise<void>;
}

function toNetnsCommand(
  netns: string | undefined,
  command: string,
  args: readonly string[],
): [string, string[]] {
  return netns === undefined ? [command, [...args]] : ['ip', ['netns', 'exec', netns, command, ...args]];
}

/** The last `bytes` of a file, for error messages. */
function readTail(filePath: string, bytes = 2000): string {
  try {
    const size = statSync(filePath).size;
    const text = readFileSync(filePath, 'utf8');
    return (size > bytes ? '…' : '') + text.slice(-bytes).trim();
  } catch {
    return '(no output)';
  }
}

export async function startDaemon(options: StartDaemonOptions): Promise<DaemonProcess> {
  const [command, args] =
    options.keepHostSys === true && options.netns !== undefined
      ? ['nsenter', [`--net=/run/netns/${options.netns}`, '--', options.command, ...options.args]]
      : toNetnsCommand(options.netns, options.command, options.args);
  const logFd = openSync(options.logPath, 'a');
  const child = spawn(command, args, {
    stdio: ['ignore', logFd, logFd],
    detached: true,
    env: options.env ?? process.env,
  });
  closeSync(logFd);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${options.name}: could not spawn ${options.command}`);
  const unregister = registerResource({ kind: 'pid', pid, command: options.command });
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exitCode = code ?? (signal === null ? -1 : -2);
      resolve();
    }),
  );
  child.once('error', () => undefined);
  const daemon: DaemonProcess = {
    pid,
    logPath: options.logPath,
    hasExited: () => exitCode !== undefined,
    stop: async () => {
      await stopGroup(pid, exited, () => exitCode !== undefined);
      unregister();
    },
  };
  await waitUntilReady(options, daemon).catch(async (error: unknown) => {
    await daemon.stop();
    throw error;
  });
  return daemon;
}

async function waitUntilReady(options: StartDaemonOptions, daemon: DaemonProcess): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  while (Date.now() < deadline) {
    if (daemon.hasExited()) {
      throw new Error(
        `${options.name} exited during start-up (${options.command} ${options.args.join(' ')}); its output:\n${readTail(options.logPath)}`,
      );
    }
    if (await options.isReady(daemon.pid).catch(() => false)) return;
    await sleep(50);
  }
  throw new Error(
    `${options.name} did not become ready within ${options.timeoutMs ?? 15_000} ms; its output:\n${readTail(options.logPath)}`,
  );
}

async function stopGroup(pid: number, exited: Promise<void>, hasExited: () => boolean): Promise<void> {
  if (hasExited()) return;
  signalGroup(pid, 'SIGTERM');
  const gone = await Promise.race([exited.then(() => true), sleep(3000).then(() => false)]);
  if (!gone) {
    signalGroup(pid, 'SIGKILL');
    await exited;
  }
  signalGroup(pid, 'SIGKILL'); // leftover workers in the group, if any
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // group already gone
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** True when something listens on host:port (from this network namespace). */
export function isTcpOpen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(500);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * True when process `pid` (or a worker it forked) listens on TCP `port`, inside `netns` when given. Checked with
 * `ss -p`, so a port already held by someone else never counts as ready.
 */
async function isListeningBy(options: {
  netns?: string | undefined;
  port: number;
  pid: number;
}): Promise<boolean> {
  const [cmd, args] = toNetnsCommand(options.netns, 'ss', ['-Hltnp', `sport = :${options.port}`]);
  const { stdout } = await execFileAsync(cmd, args);
  const pids = [...stdout.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1]));
  return pids.some((p) => p === options.pid || isInProcessGroup(p, options.pid));
}

function isInProcessGroup(pid: number, groupId: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[2]) === groupId;
  } catch {
    return false;
  }
}

/** The readiness probe every starter uses: the daemon itself listens on `port` (in its namespace). */
export function createPortProbe(options: {
  netns?: string | undefined;
  port: number;
}): (pid: number) => Promise<boolean> {
  return (pid) => isListeningBy({ ...options, pid });
}

/** Runs a one-shot command (optionally in a namespace) and returns stdout; throws with stderr on failure. */
export async function runCommand(command: string, args: readonly string[], netns?: string): Promise<string> {
  const [cmd, argv] = toNetnsCommand(netns, command, args);
  try {
    const { stdout } = await execFileAsync(cmd, argv, { maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    throw new Error(`${cmd} ${argv.join(' ')} failed: ${stderr.trim() || String(error)}`, { cause: error });
  }
}

export interface RestartableDaemon {
  pid: () => number;
  /** Takes the daemon down (its whole process group, connections included), waits `downMs`, starts it again. */
  outage: (downMs: number) => Promise<void>;
  stop: () => Promise<void>;
}

/** A daemon that fault-injection tests can take down for a while and bring back with the same command and config. */
export async function startRestartableDaemon(options: StartDaemonOptions): Promise<RestartableDaemon> {
  let current = await startDaemon(options);
  let restarting: Promise<void> | undefined;
  return {
    pid: () => current.pid,
    outage: (downMs) => {
      restarting = (async () => {
        // Children first: a daemon's connections (sshd's per-connection processes) may sit in their own sessions.
        for (const pid of listDescendants(current.pid).reverse()) signalPid(pid, 'SIGKILL');
        await current.stop();
        await sleep(downMs);
        current = await startDaemon(options);
      })();
      return restarting;
    },
    stop: async () => {
      await restarting?.catch(() => undefined);
      await current.stop();
    },
  };
}

/** Every process below `root` (by /proc parent links), parents before children. */
function listDescendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
    } catch {
      // exited meanwhile
    }
  }
  const found: number[] = [];
  const visit = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      visit(child);
    }
  };
  visit(root);
  return found;
}

function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}
