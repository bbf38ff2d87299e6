// Every resource a test makes (daemon pid, temp dir, network namespace, link) is registered here, so it is removed
// on stop, on normal exit, on SIGINT/SIGTERM, and — through a ledger file per owning process — by a later run
// when this one was killed outright (`cleanupStaleLeftovers`).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export type Resource =
  | { kind: 'pid'; pid: number; command: string }
  | { kind: 'dir'; path: string }
  | { kind: 'netns'; name: string }
  | { kind: 'link'; name: string }
  /** A cgroup v1 directory: its processes are killed, then it is removed. */
  | { kind: 'cgroup'; path: string };

const ledgerDir = path.join(tmpdir(), 'rocm-perf-test-ledger');
const ledgerPath = path.join(ledgerDir, `${process.pid}.json`);
const live = new Map<number, Resource>();
let nextId = 1;
let hooksInstalled = false;

/** Registers a resource; the returned function forgets it (call after removing it yourself). */
export function registerResource(resource: Resource): () => void {
  installExitHooks();
  const id = nextId++;
  live.set(id, resource);
  writeLedger();
  return () => {
    live.delete(id);
    writeLedger();
  };
}

function writeLedger(): void {
  mkdirSync(ledgerDir, { recursive: true });
  if (live.size === 0) {
    rmSync(ledgerPath, { force: true });
    return;
  }
  writeFileSync(
    ledgerPath,
    JSON.stringify({ version: 1, ownerPid: process.pid, resources: [...live.values()] }),
  );
}

/** Removes one resource synchronously; never throws (best effort, used from exit hooks). */
function removeResourceSync(resource: Resource): void {
  try {
    switch (resource.kind) {
      case 'pid':
        if (isSameProcess(resource.pid, resource.command)) killGroupSync(resource.pid);
        break;
      case 'dir':
        rmSync(resource.path, { recursive: true, force: true });
        break;
      case 'netns':
        execFileSync('ip', ['netns', 'delete', resource.name], { stdio: 'ignore' });
        break;
      case 'link':
        execFileSync('ip', ['link', 'delete', resource.name], { stdio: 'ignore' });
        break;
      case 'cgroup':
        removeCgroupSync(resource.path);
        break;
    }
  } catch {
    // already gone
  }
}

function killGroupSync(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    process.kill(pid, 'SIGKILL');
  }
}

function isSameProcess(pid: number, command: string): boolean {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return cmdline.includes(path.basename(command));
  } catch {
    return false;
  }
}

/** Kills what still runs in a cgroup, then removes it (rmdir fails until the last task has exited). */
export function removeCgroupSync(dir: string): void {
  for (let attempt = 0; attempt < 50; attempt++) {
    let pids: string[];
    try {
      pids = readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean);
    } catch {
      return;
    }
    for (const pid of pids) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // gone already
      }
    }
    try {
      rmdirSync(dir);
      return;
    } catch {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
}

const removalOrder: Record<Resource['kind'], number> = { pid: 0, cgroup: 1, link: 2, netns: 3, dir: 4 };

function sortForRemoval(resources: readonly Resource[]): Resource[] {
  return [...resources].reverse().sort((a, b) => removalOrder[a.kind] - removalOrder[b.kind]);
}

/** Removes everything this process still holds (exit hooks call it). */
function cleanupAllSync(): void {
  for (const resource of sortForRemoval([...live.values()])) removeResourceSync(resource);
  live.clear();
  writeLedger();
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes what earlier, now dead, test processes left behind; returns how many ledgers it cleared. */
export function cleanupStaleLeftovers(): number {
  let cleared = 0;
  let names: string[] = [];
  try {
    names = readdirSync(ledgerDir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const ownerPid = Number(name.replace(/\.json$/, ''));
    if (!Number.isInteger(ownerPid) || ownerPid === process.pid || isAlive(ownerPid)) continue;
    const file = path.join(ledgerDir, name);
    try {
      const ledger = JSON.parse(readFileSync(file, 'utf8')) as { resources?: Resource[] };
      for (const resource of sortForRemoval(ledger.resources ?? [])) removeResourceSync(resource);
    } catch {
      // unreadable ledger: drop it
    }
    rmSync(file, { force: true });
    cleared++;
  }
  return cleared;
}

function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', cleanupAllSync);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      cleanupAllSync();
      process.kill(process.pid, signal);
    });
  }
}
