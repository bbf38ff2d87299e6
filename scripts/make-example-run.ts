// Produces the shipped example runs by running the product on the fleet in a box with the whole gfx1201 scenario
// (5 nodes, the WiFi node included, 13 targets), recorded with the evidence on (mode=max provenance, each builder's
// cache-key debug database, per-step usage), so a new user can try `report`, `serve`, `diff` and `advise` without a
// fleet:
//   fixtures/runs/gfx1201-warm          a warm run after one known change: pytorch's source moved, so pytorch misses
//                                       at its COPY and the targets built on it rebuild; its report says why;
//   fixtures/runs/gfx1201-warm-before   the warm run before it, which it is explained against;
//   fixtures/runs/gfx1201-cold          a cold run of the same scenario (no caches, export not timed);
//   fixtures/runs/gfx1201-cold-vs-warm.md          `rocm-perf diff --force` of cold and warm;
//   fixtures/runs/gfx1201-warm-before-vs-warm.md   `rocm-perf diff` of the warm pair: the change priced by cause.
// All carry a forecast band: before them, three warm runs (each after a source change) and three cold runs (one
// per placement strategy, so targets land on different nodes) are pooled by `rocm-perf costs --from RUN...` into the
// box's target costs with spread lines, and the fleet model's learned link and speed are printed beside the box's
// true tc rate and CPU quota. The copies are then re-rendered where they lie (`report`; the warm run finds the run
// before it as its sibling) and the two diffs taken of the copies, so every name in them is a shipped dir's.
// Needs root (network namespaces, cgroups), and the box lock:
//   npm run build && flock /tmp/rocm-perf-box.lock npx tsx scripts/make-example-run.ts [--time-scale 1/150] [--out fixtures/runs]
// Re-render the shipped copies and their diffs only (no box, after a change to the report):
//   npm run build && npx tsx scripts/make-example-run.ts --render-only [--out fixtures/runs]
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  readCgroupCpuSeconds,
  readSccacheServerSeconds,
  sampleCgroupCpu,
  unionMs,
  type CgroupSample,
} from '../test/fleet/outside-truth.js';
import { execa } from 'execa';
import { isUploadRequest, readRegistryTruth, startFleet, type RunningFleet } from '../test/fleet/index.js';
import { runBoxCli } from './run-box-cli.js';

const repoRoot = path.resolve(import.meta.dirname, '..');

function readFlag(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : (process.argv[index + 1] ?? fallback);
}

const [numerator = 1, denominator = 150] = readFlag('time-scale', '1/150').split('/').map(Number);
const out = path.resolve(repoRoot, readFlag('out', 'fixtures/runs'));

/** The built CLI on the shipped copies (no box): stdout, or a failure naming the command. */
async function runLocalCli(args: string[]): Promise<string> {
  const result = await execa('node', [path.join(repoRoot, 'bin/rocm-perf.js'), ...args], {
    cwd: repoRoot,
    env: { NO_COLOR: '1' },
    reject: false,
    stderr: 'inherit',
  });
  if (result.exitCode !== 0) throw new Error(`rocm-perf ${args.join(' ')} exited ${result.exitCode}`);
  return String(result.stdout);
}

/**
 * Re-renders the copies in `out` (the warm run is explained against its sibling gfx1201-warm-before, as a user's
 * `report` finds it) and writes the two diffs of the copies.
 */
async function renderCopies(): Promise<void> {
  const dir = (name: string) => path.join(out, name);
  for (const name of ['gfx1201-warm-before', 'gfx1201-warm', 'gfx1201-cold'])
    await runLocalCli(['report', dir(name)]);
  const diffs: [string, string[]][] = [
    ['gfx1201-cold-vs-warm.md', ['--force', dir('gfx1201-cold'), dir('gfx1201-warm')]],
    ['gfx1201-warm-before-vs-warm.md', [dir('gfx1201-warm-before'), dir('gfx1201-warm')]],
  ];
  for (const [file, args] of diffs) {
    writeFileSync(dir(file), await runLocalCli(['diff', ...args]));
    console.log(`diff written to ${path.relative(repoRoot, dir(file))}`);
  }
}

const runsRoot = mkdtempSync(path.join(os.tmpdir(), 'rocm-perf-sample-'));

/**
 * The recorded run against what happened outside the product: upload bytes and seconds per target from the
 * registry proxy's own record, build seconds against the node's cgroup CPU at its quota. Prints the table and the
 * worst errors.
 */
function compareWithTruth(fleet: RunningFleet, runDir: string, cpu: Map<string, CgroupSample[]>): void {
  const run = JSON.parse(readFileSync(path.join(runDir, 'run.json'), 'utf8')) as {
    targets: Record<string, { status: string; node: string; startedAtMs: number; finishedAtMs: number }>;
  };
  const data = JSON.parse(readFileSync(path.join(runDir, 'data.json'), 'utf8')) as {
    summary: {
      targets: {
        target: string;
        buildSeconds: number | null;
        uploadSeconds: number | null;
        uploadBytes: number | null;
      }[];
    };
  };
  const truth = readRegistryTruth(fleet.services.registryTruthPath);
  const worst = { uploadSeconds: 0, uploadBytes: 0, buildSeconds: 0 };
  const lines: string[] = [];
  for (const summary of data.summary.targets) {
    const outcome = run.targets[summary.target]!;
    const node = fleet.nodes.find((candidate) => candidate.name === outcome.node)!;
    const uploads = truth.filter(
      (line) =>
        isUploadRequest(line) &&
        line.clientIp === node.address &&
        line.firstByteMs >= outcome.startedAtMs &&
        line.firstByteMs <= outcome.finishedAtMs,
    );
    const bytes = uploads.reduce((sum, line) => sum + line.requestBytes, 0);
    const seconds = unionMs(uploads.map((line) => [line.firstByteMs, line.endMs])) / 1000;
    const cpuSeconds = readCgroupCpuSeconds(cpu.get(node.name)!, outcome.startedAtMs, outcome.finishedAtMs);
    const atQuota = cpuSeconds / node.cgroup.quotaCores;
    const sccache = readSccacheServerSeconds(fleet, node.address, outcome.startedAtMs, outcome.finishedAtMs);
    const errors = {
      uploadSeconds: Math.abs((summary.uploadSeconds ?? 0) - seconds) / Math.max(seconds, 1e-9),
      uploadBytes: Math.abs((summary.uploadBytes ?? 0) - bytes) / Math.max(bytes, 1),
      buildSeconds: Math.abs((summary.buildSeconds ?? 0) - atQuota) / Math.max(atQuota, 1e-9),
    };
    for (const key of Object.keys(worst) as (keyof typeof worst)[])
      worst[key] = Math.max(worst[key], errors[key]);
    lines.push(
      `| ${summary.target} | ${node.name} | ${summary.uploadSeconds?.toFixed(3)} | ${seconds.toFixed(3)} | ${summary.uploadBytes} | ${bytes} | ${summary.buildSeconds?.toFixed(2)} | ${atQuota.toFixed(2)} | ${sccache.toFixed(2)} | ${((summary.buildSeconds ?? 0) - atQuota - sccache).toFixed(2)} |`,
    );
  }
  console.log(
    [
      '| target | node | upload s (data.json) | upload s (proxy) | bytes (data.json) | bytes (proxy) | build s (data.json) | cgroup CPU ÷ quota s | nginx sccache s | build − both s |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...lines,
    ].join('\n'),
  );
  console.log(
    `worst relative error: upload seconds ${(worst.uploadSeconds * 100).toFixed(2)} %, upload bytes ${(worst.uploadBytes * 100).toFixed(2)} %, build seconds vs CPU at quota ${(worst.buildSeconds * 100).toFixed(2)} %`,
  );
}

/** Runs a harness and copies its run dir to `out/name`, report-page.js included: the shipped page opens from disk. */
async function recordRun(fleet: RunningFleet, harness: string, name: string): Promise<string> {
  const stdout = await runBoxCli(fleet, [harness, '--root', runsRoot, '--sample-interval-ms', '1000']);
  const runDir = stdout.trim().split('\n').at(-1) ?? '';
  const target = path.join(out, name);
  rmSync(target, { recursive: true, force: true });
  cpSync(runDir, target, { recursive: true });
  console.log(`${harness} run copied from ${runDir} to ${path.relative(repoRoot, target)}`);
  return target;
}

const lastLine = (stdout: string) => stdout.trim().split('\n').at(-1) ?? '';

/** Three warm and three cold runs pooled into the box's target costs, so the recorded runs carry a forecast band. */
async function buildHistory(fleet: RunningFleet): Promise<string> {
  const warmRuns: string[] = [];
  for (let k = 0; k < 3; k++) {
    fleet.bumpRevisions();
    warmRuns.push(
      lastLine(await runBoxCli(fleet, ['warm', '--root', runsRoot, '--sample-interval-ms', '1000'])),
    );
  }
  const coldRuns: string[] = [];
  for (const strategy of ['heft-ls', 'lpt', 'build-only'])
    coldRuns.push(
      lastLine(
        await runBoxCli(fleet, [
          'cold',
          '--root',
          runsRoot,
          '--sample-interval-ms',
          '1000',
          '--strategy',
          strategy,
        ]),
      ),
    );
  await runBoxCli(fleet, ['costs', ...warmRuns.flatMap((run) => ['--from', run])], { echo: true });
  await runBoxCli(fleet, ['costs', ...coldRuns.flatMap((run) => ['--from', run])], { echo: true });
  console.log(`box target costs after pooling (${fleet.files.costsPath}):`);
  console.log(readFileSync(fleet.files.costsPath, 'utf8'));
  console.log(`box truth per node (tc rate, CPU quota; a speed-1 node has ${fleet.cpuBaseCores} cores):`);
  for (const node of fleet.nodes)
    console.log(
      `  ${node.name}: tc rate ${(node.rateBits / 8e6).toPrecision(4)} MB/s, quota ${node.cgroup.quotaCores} cores (speed ${(node.cgroup.quotaCores / fleet.cpuBaseCores).toPrecision(3)})`,
    );
  await runBoxCli(fleet, ['plan'], { echo: true });
  return warmRuns.at(-1) ?? '';
}

/** The box part: history, the warm pair after one known change, the cold run; copied to `out`. */
async function recordInBox(): Promise<void> {
  // provenance: every target attests mode=max, so the warm sample's report can say why each target missed.
  const fleet = await startFleet({
    scenario: 'gfx1201',
    scale: { timeScale: numerator / denominator },
    provenance: true,
  });
  try {
    // The first warm run fills the caches. The example follows one known change: pytorch's source (its REVISION)
    // moves, so pytorch misses at its COPY and every wheel built on it rebuilds after it (onnxruntime-wheel, built on
    // nothing of the run, stays cached). Its report explains that against the warm run before it, shipped beside it
    // as gfx1201-warm-before so `report` can explain the sample again.
    await runBoxCli(fleet, ['warm', '--root', runsRoot, '--sample-interval-ms', '1000']);
    const before = await buildHistory(fleet);
    fleet.bumpRevisions(['pytorch']);
    const stopSampling = sampleCgroupCpu(fleet);
    const warm = await recordRun(fleet, 'warm', 'gfx1201-warm');
    const beforeCopy = path.join(out, 'gfx1201-warm-before');
    rmSync(beforeCopy, { recursive: true, force: true });
    cpSync(before, beforeCopy, { recursive: true });
    console.log(
      `the warm run it is explained against copied from ${before} to ${path.relative(repoRoot, beforeCopy)}`,
    );
    compareWithTruth(fleet, warm, stopSampling());
    const stopColdSampling = sampleCgroupCpu(fleet);
    const cold = await recordRun(fleet, 'cold', 'gfx1201-cold');
    compareWithTruth(fleet, cold, stopColdSampling());
  } finally {
    await fleet.stop();
    rmSync(runsRoot, { recursive: true, force: true });
  }
}

if (process.argv.includes('--render-only')) rmSync(runsRoot, { recursive: true, force: true });
else await recordInBox();
await renderCopies();
