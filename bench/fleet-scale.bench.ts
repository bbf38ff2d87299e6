// `npm run bench:fleet` (root): a 24-node fleet in a box with a generated graph of about 100 targets
// (test/fleet/generate-box-scenario.ts), one warm run end to end, sampled at 1 Hz. Prints the box's start and stop
// times, and the harness's own cost: CPU seconds per minute of run and peak RSS of the `rocm-perf warm` process,
// from its own getrusage (an --import hook writes process.resourceUsage() at exit), so nothing the double or the
// daemons spend is counted. Env: FLEET_NODES (24), FLEET_TARGETS (100), FLEET_TIME_SCALE (1/300).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { startFleet } from '../test/fleet/index.js';

const repoRoot = path.resolve(import.meta.dirname, '..');
const nodeCount = Number(process.env.FLEET_NODES ?? 24);
const targetCount = Number(process.env.FLEET_TARGETS ?? 100);
const timeScaleText = process.env.FLEET_TIME_SCALE ?? '1/300';
const [num, den] = timeScaleText.split('/').map(Number);
const timeScale = den ? num! / den : num!;

const work = mkdtempSync(path.join(tmpdir(), 'rocm-perf-fleet-scale-'));
const usageFile = path.join(work, 'usage.json');
const hook = path.join(work, 'usage-hook.mjs');
writeFileSync(
  hook,
  `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(${JSON.stringify(usageFile)}, JSON.stringify(process.resourceUsage())));\n`,
);

const startedAt = performance.now();
const fleet = await startFleet({ nodeCount, targetCount, scale: { timeScale } });
const startSeconds = (performance.now() - startedAt) / 1000;
let failed = false;
try {
  console.log(
    `box up in ${startSeconds.toFixed(1)} s: ${fleet.nodes.length} nodes, quota ${fleet.cpuBaseCores} cores at speed 1, time scale ${timeScaleText}; load ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
  const root = path.join(work, 'runs');
  const runStarted = performance.now();
  const result = await execa(
    process.execPath,
    [
      '--import',
      hook,
      path.join(repoRoot, 'bin/rocm-perf.js'),
      'warm',
      '--root',
      root,
      '--sample-interval-ms',
      '1000',
    ],
    {
      cwd: repoRoot,
      env: { ...fleet.env, HOME: process.env.HOME ?? '/root', NO_COLOR: '1', PERF_FLEET: fleet.fleetPath },
      extendEnv: false,
      reject: false,
    },
  );
  const wallSeconds = (performance.now() - runStarted) / 1000;
  if (result.exitCode !== 0) {
    failed = true;
    console.error(`rocm-perf warm exited ${result.exitCode}:\n${String(result.stderr).slice(-4000)}`);
  }
  const usage = JSON.parse(readFileSync(usageFile, 'utf8')) as NodeJS.ResourceUsage;
  const cpuSeconds = (usage.userCPUTime + usage.systemCPUTime) / 1e6;
  const runDir = path.join(
    root,
    readdirSync(root).find((name) => !name.startsWith('.'))!,
  );
  const run = JSON.parse(readFileSync(path.join(runDir, 'run.json'), 'utf8')) as {
    status: string;
    targets: Record<string, { status: string }>;
  };
  const samples = readFileSync(path.join(runDir, 'samples.jsonl'), 'utf8').split('\n').filter(Boolean);
  const perNode = new Map<string, number>();
  for (const line of samples) {
    const node = (JSON.parse(line) as { node: string }).node;
    perNode.set(node, (perNode.get(node) ?? 0) + 1);
  }
  const ok = Object.values(run.targets).filter((target) => target.status === 'ok').length;
  console.log(
    [
      `warm run: ${run.status}, ${ok}/${Object.keys(run.targets).length} targets ok, ${wallSeconds.toFixed(1)} s wall, run dir ${runDir}`,
      `samples: ${samples.length} lines, ${perNode.size} nodes, ${Math.min(...perNode.values())}–${Math.max(...perNode.values())} per node`,
      `harness (rocm-perf warm, its own getrusage): ${cpuSeconds.toFixed(1)} CPU s = ${((cpuSeconds / wallSeconds) * 60).toFixed(1)} CPU s per minute of run, peak RSS ${(usage.maxRSS / 1024).toFixed(0)} MB`,
    ].join('\n'),
  );
} finally {
  const stopStarted = performance.now();
  await fleet.stop();
  console.log(`box stopped in ${((performance.now() - stopStarted) / 1000).toFixed(1)} s`);
  rmSync(work, { recursive: true, force: true });
}
if (failed) process.exitCode = 1;
