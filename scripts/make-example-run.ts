// Produces the shipped example runs by running the product on the fleet in a box with the whole gfx1201 scenario
// (5 nodes, the WiFi node included, 13 targets), so a new user can try `report`, `serve` and `diff` without a fleet:
//   fixtures/runs/gfx1201-warm   a warm run after a source change (layer cache misses, sccache hits, pushes);
//   fixtures/runs/gfx1201-cold   a cold run of the same scenario (no caches, export not timed);
//   fixtures/runs/gfx1201-cold-vs-warm.md   `rocm-perf diff --force` of the two.
// Needs root (network namespaces, cgroups):
//   npm run build && npx tsx scripts/make-example-run.ts [--time-scale 1/150] [--out fixtures/runs]
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { startFleet, type RunningFleet } from '../test/fleet/index.js';

const repoRoot = path.resolve(import.meta.dirname, '..');

function readFlag(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : (process.argv[index + 1] ?? fallback);
}

const [numerator = 1, denominator = 150] = readFlag('time-scale', '1/150').split('/').map(Number);
const out = path.resolve(repoRoot, readFlag('out', 'fixtures/runs'));
const runsRoot = mkdtempSync(path.join(os.tmpdir(), 'rocm-perf-sample-'));

async function runCli(fleet: RunningFleet, args: string[]): Promise<string> {
  const result = await execa('node', [path.join(repoRoot, 'bin/rocm-perf.js'), ...args], {
    cwd: repoRoot,
    env: { ...fleet.env, HOME: process.env.HOME ?? '/root', NO_COLOR: '1', PERF_FLEET: fleet.fleetPath },
    extendEnv: false,
    reject: false,
    stdout: 'pipe',
    stderr: 'inherit',
  });
  if (result.exitCode !== 0) throw new Error(`rocm-perf ${args.join(' ')} exited ${result.exitCode}`);
  return String(result.stdout);
}

/** Runs a harness and copies its run dir to `out/name`, without the page scripts `report` and `serve` supply. */
async function recordRun(fleet: RunningFleet, harness: string, name: string): Promise<string> {
  const stdout = await runCli(fleet, [harness, '--root', runsRoot, '--sample-interval-ms', '1000']);
  const runDir = stdout.trim().split('\n').at(-1) ?? '';
  const target = path.join(out, name);
  rmSync(target, { recursive: true, force: true });
  cpSync(runDir, target, { recursive: true });
  for (const asset of ['echarts.min.js', 'report-page.js']) rmSync(path.join(target, asset), { force: true });
  console.log(`${harness} run copied from ${runDir} to ${path.relative(repoRoot, target)}`);
  return target;
}

const fleet = await startFleet({ scenario: 'gfx1201', scale: { timeScale: numerator / denominator } });
try {
  // The first warm run fills the caches; after a source change (new revisions) the next one is the example.
  await runCli(fleet, ['warm', '--root', runsRoot, '--sample-interval-ms', '1000']);
  fleet.bumpRevisions();
  const warm = await recordRun(fleet, 'warm', 'gfx1201-warm');
  const cold = await recordRun(fleet, 'cold', 'gfx1201-cold');
  const diff = await runCli(fleet, ['diff', '--force', cold, warm]);
  writeFileSync(path.join(out, 'gfx1201-cold-vs-warm.md'), diff);
  console.log(`diff written to ${path.relative(repoRoot, path.join(out, 'gfx1201-cold-vs-warm.md'))}`);
} finally {
  await fleet.stop();
  rmSync(runsRoot, { recursive: true, force: true });
}
