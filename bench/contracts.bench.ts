// `npm run bench:contracts`: wall time of `node bin/rocm-perf.js contracts` on the repo, spawned as CI runs it
// (node start-up included). Also the baseline of `node bin/rocm-perf.js --version` (start-up alone) and the
// command's CPU time. Prints one line per figure; exits 1 if the median misses the 1 s target.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { cpus, loadavg } from 'node:os';

const repoRoot = path.resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const TARGET_MS = 1000;

interface Timing {
  wallMs: number;
  cpuMs: number;
}

/** CPU time of this process's waited-for children (Linux /proc: cutime + cstime, in 10 ms ticks), or NaN. */
function readChildrenCpuMs(): number {
  if (!existsSync('/proc/self/stat')) return NaN;
  const fields = readFileSync('/proc/self/stat', 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

function timeOnce(args: string[]): Timing {
  const started = performance.now();
  const result = spawnSync(process.execPath, [path.join(repoRoot, 'bin/rocm-perf.js'), ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  const wallMs = performance.now() - started;
  if (result.status !== 0)
    throw new Error(
      `rocm-perf ${args.join(' ')} exited ${String(result.status)}:\n${result.stdout}${result.stderr}`,
    );
  return { wallMs, cpuMs: readChildrenCpuMs() };
}

function measure(args: string[]): { wall: number[]; cpu: number[] } {
  timeOnce(args); // warm the file cache
  const wall: number[] = [];
  const cpu: number[] = [];
  let cpuBefore = timeOnce(args).cpuMs;
  for (let i = 0; i < RUNS; i++) {
    const timing = timeOnce(args);
    wall.push(timing.wallMs);
    cpu.push(timing.cpuMs - cpuBefore);
    cpuBefore = timing.cpuMs;
  }
  return { wall: wall.sort((a, b) => a - b), cpu: cpu.sort((a, b) => a - b) };
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
}

function line(label: string, sorted: readonly number[]): string {
  return `${label.padEnd(44)} median ${quantile(sorted, 0.5).toFixed(0).padStart(5)} ms   p90 ${quantile(sorted, 0.9).toFixed(0).padStart(5)} ms   min ${(sorted[0] ?? NaN).toFixed(0).padStart(5)} ms`;
}

const startup = measure(['--version']);
const contracts = measure(['contracts']);
console.log(
  `node ${process.version}, ${cpus().length} cores, load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}, ${RUNS} runs each`,
);
console.log(line('node bin/rocm-perf.js --version (wall)', startup.wall));
console.log(line('node bin/rocm-perf.js contracts (wall)', contracts.wall));
console.log(line('node bin/rocm-perf.js contracts (child CPU)', contracts.cpu));
const median = quantile(contracts.wall, 0.5);
console.log(`target: wall < ${TARGET_MS} ms → ${median < TARGET_MS ? 'met' : 'MISSED'}`);
if (median >= TARGET_MS) process.exitCode = 1;
