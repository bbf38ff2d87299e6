// Produces the shipped example run dir (fixtures/runs/box-warm) by running `rocm-perf warm` on the fleet in a
// box, so a new user can try `report` and `serve` without a fleet. Needs root (network namespaces):
//   npm run build && npx tsx scripts/make-example-run.ts [--time-scale 1/150] [--out fixtures/runs/box-warm]
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { startFleet } from '../test/fleet/index.js';

const repoRoot = path.resolve(import.meta.dirname, '..');

function readFlag(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : (process.argv[index + 1] ?? fallback);
}

const [numerator = 1, denominator = 150] = readFlag('time-scale', '1/150').split('/').map(Number);
const out = path.resolve(repoRoot, readFlag('out', 'fixtures/runs/box-warm'));
const runsRoot = mkdtempSync(path.join(os.tmpdir(), 'rocm-perf-sample-'));
const fleet = await startFleet({ scale: { timeScale: numerator / denominator } });
try {
  const result = await execa('node', [path.join(repoRoot, 'bin/rocm-perf.js'), 'warm', '--root', runsRoot], {
    cwd: repoRoot,
    env: { ...fleet.env, HOME: process.env.HOME ?? '/root', NO_COLOR: '1', PERF_FLEET: fleet.fleetPath },
    extendEnv: false,
    reject: false,
    stdout: 'pipe',
    stderr: 'inherit',
  });
  const runDir = String(result.stdout).trim().split('\n').at(-1) ?? '';
  if (result.exitCode !== 0) throw new Error(`rocm-perf warm exited ${result.exitCode}; run dir ${runDir}`);
  rmSync(out, { recursive: true, force: true });
  cpSync(runDir, out, { recursive: true });
  // The page's scripts are rebuilt by `report` and served by `serve` from the package; don't ship copies.
  for (const asset of ['echarts.min.js', 'report-page.js']) rmSync(path.join(out, asset), { force: true });
  console.log(`example run copied from ${runDir} to ${path.relative(repoRoot, out)}`);
} finally {
  await fleet.stop();
  rmSync(runsRoot, { recursive: true, force: true });
}
