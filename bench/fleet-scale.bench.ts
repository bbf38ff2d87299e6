// `npm run bench:fleet` (root): a 24-node fleet in a box with a generated graph of about 100 targets
// (test/fleet/generate-box-scenario.ts), one warm run end to end, sampled at 1 Hz. Prints the box's start and stop
// times, and the harness's own cost: CPU seconds per minute of run and peak RSS of the `rocm-perf warm` process,
// from its own getrusage (an --import hook writes process.resourceUsage() at exit), so nothing the double or the
// daemons spend is counted; and its event-loop delay and stalls, against the spacing of the samples. Env: FLEET_NODES (24), FLEET_TARGETS (100), FLEET_TIME_SCALE (1/300),
// FLEET_CPU_PROF=1 (profile the harness with --cpu-prof and print the product functions it spent most time in).
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

/** Whether the sampler held its interval: spacing of each node's samples, and what the gaps said. */
function describeSampling(byNode: Map<string, { tsMs: number; ok: boolean; error?: string }[]>): string {
  const spacings: number[] = [];
  const errors = new Map<string, number>();
  let ok = 0;
  let gaps = 0;
  let windowSeconds = 0;
  for (const list of byNode.values()) {
    list.sort((a, b) => a.tsMs - b.tsMs);
    for (let i = 1; i < list.length; i++) spacings.push(list[i]!.tsMs - list[i - 1]!.tsMs);
    windowSeconds = Math.max(windowSeconds, (list.at(-1)!.tsMs - list[0]!.tsMs) / 1000);
    for (const sample of list) {
      if (sample.ok) ok++;
      else {
        gaps++;
        const reason = (sample.error ?? '').replace(/https?:\/\/\S+/g, 'URL').replace(/\d+/g, 'N');
        errors.set(reason, (errors.get(reason) ?? 0) + 1);
      }
    }
  }
  spacings.sort((a, b) => a - b);
  const at = (p: number) => spacings[Math.min(spacings.length - 1, Math.floor(p * spacings.length))] ?? NaN;
  const top = [...errors.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3);
  return [
    `sampling: ${ok} ok, ${gaps} gaps over a ${windowSeconds.toFixed(0)} s window (${byNode.size} nodes); spacing between a node's samples p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${spacings.at(-1)} ms`,
    ...top.map(([reason, count]) => `  gap × ${count}: ${reason}`),
  ].join('\n');
}

const work = mkdtempSync(path.join(tmpdir(), 'rocm-perf-fleet-scale-'));
const usageFile = path.join(work, 'usage.json');
const hook = path.join(work, 'usage-hook.mjs');
// The hook also watches the harness's event loop: its delay histogram, and every stall (a 100 ms timer firing more
// than 500 ms late) with when it began, to hold against the spacing of the samples.
writeFileSync(
  hook,
  [
    `import { writeFileSync } from 'node:fs';`,
    `import { monitorEventLoopDelay } from 'node:perf_hooks';`,
    `const histogram = monitorEventLoopDelay({ resolution: 10 });`,
    `histogram.enable();`,
    `const stalls = [];`,
    `let last = Date.now();`,
    `setInterval(() => { const now = Date.now(); if (now - last > 600) stalls.push([last + 100, now]); last = now; }, 100).unref();`,
    `process.on('exit', () => writeFileSync(${JSON.stringify(usageFile)}, JSON.stringify({ usage: process.resourceUsage(), loopMs: { p50: histogram.percentile(50) / 1e6, p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6 }, stalls })));`,
    '',
  ].join('\n'),
);

interface HarnessUsage {
  usage: NodeJS.ResourceUsage;
  loopMs: { p50: number; p99: number; max: number };
  /** [from, to] in epoch ms: the harness's event loop ran nothing else. */
  stalls: [number, number][];
}

/** How much of the samples' long spacings the harness's own event-loop stalls explain. */
function describeLoop(harness: HarnessUsage, byNode: Map<string, { tsMs: number }[]>): string {
  const stalledMs = harness.stalls.reduce((sum, [from, to]) => sum + to - from, 0);
  let long = 0;
  let explained = 0;
  for (const list of byNode.values())
    for (let i = 1; i < list.length; i++) {
      const [from, to] = [list[i - 1]!.tsMs, list[i]!.tsMs];
      if (to - from <= 2000) continue;
      long++;
      if (harness.stalls.some(([a, b]) => a < to && b > from)) explained++;
    }
  return [
    `harness event loop: delay p50 ${harness.loopMs.p50.toFixed(0)} ms, p99 ${harness.loopMs.p99.toFixed(0)} ms, max ${harness.loopMs.max.toFixed(0)} ms; ${harness.stalls.length} stalls over 500 ms, ${(stalledMs / 1000).toFixed(1)} s in all`,
    `  ${explained} of ${long} sample spacings over 2 s overlap a stall`,
  ].join('\n');
}

const cpuProfDir =
  process.env.FLEET_CPU_PROF === '1' ? mkdtempSync('/var/tmp/rocm-perf-fleet-prof-') : undefined;

interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  samples: number[];
  timeDeltas: number[];
}

/** The product's functions (dist/) by inclusive time on the harness's main thread, from a --cpu-prof profile. */
function describeProfile(dir: string): string {
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) return `no .cpuprofile in ${dir}`;
  const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const inclusiveUs = new Map<string, number>();
  /** Per product function: the leaf frames (any code) its samples ended in, by time. */
  const leavesUs = new Map<string, Map<string, number>>();
  let totalUs = 0;
  let idleUs = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    totalUs += delta;
    if (byId.get(id)?.callFrame.functionName === '(idle)') idleUs += delta;
    const seen = new Set<string>();
    const leafFrame = byId.get(id)!.callFrame;
    const leaf = `${leafFrame.functionName || '(anonymous)'} ${leafFrame.url.split('/').slice(-2).join('/')}:${leafFrame.lineNumber + 1}`;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      const marker = frame.url.indexOf('/dist/');
      if (marker < 0) continue;
      const key = `${frame.functionName || '(anonymous)'} ${frame.url.slice(marker + 1)}:${frame.lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusiveUs.set(key, (inclusiveUs.get(key) ?? 0) + delta);
      const leaves = leavesUs.get(key) ?? new Map<string, number>();
      leaves.set(leaf, (leaves.get(leaf) ?? 0) + delta);
      leavesUs.set(key, leaves);
    }
  });
  const top = [...inclusiveUs].sort((a, b) => b[1] - a[1]).slice(0, 15);
  return [
    `harness profile (${path.join(dir, file)}): ${(totalUs / 1e6).toFixed(1)} s sampled, ${(idleUs / 1e6).toFixed(1)} s idle; product functions by inclusive time:`,
    ...top.flatMap(([key, us], index) => [
      `  ${(us / 1e6).toFixed(2)} s  ${key}`,
      ...(index < 5
        ? [...leavesUs.get(key)!]
            .sort((a, b) => b[1] - a[1])
            .slice(0, 4)
            .map(([leaf, leafUs]) => `      ${(leafUs / 1e6).toFixed(2)} s in ${leaf}`)
        : []),
    ]),
  ].join('\n');
}

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
      ...(cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', cpuProfDir] : []),
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
  const harness = JSON.parse(readFileSync(usageFile, 'utf8')) as HarnessUsage;
  const usage = harness.usage;
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
  const byNode = new Map<string, { tsMs: number; ok: boolean; error?: string }[]>();
  for (const line of samples) {
    const sample = JSON.parse(line) as { node: string; tsMs: number; ok: boolean; error?: string };
    perNode.set(sample.node, (perNode.get(sample.node) ?? 0) + 1);
    byNode.set(sample.node, [...(byNode.get(sample.node) ?? []), sample]);
  }
  const ok = Object.values(run.targets).filter((target) => target.status === 'ok').length;
  console.log(
    [
      `warm run: ${run.status}, ${ok}/${Object.keys(run.targets).length} targets ok, ${wallSeconds.toFixed(1)} s wall, run dir ${runDir}`,
      `samples: ${samples.length} lines, ${perNode.size} nodes, ${Math.min(...perNode.values())}–${Math.max(...perNode.values())} per node`,
      describeSampling(byNode),
      describeLoop(harness, byNode),
      `harness (rocm-perf warm, its own getrusage): ${cpuSeconds.toFixed(1)} CPU s = ${((cpuSeconds / wallSeconds) * 60).toFixed(1)} CPU s per minute of run, peak RSS ${(usage.maxRSS / 1024).toFixed(0)} MB`,
      ...(cpuProfDir ? [describeProfile(cpuProfDir)] : []),
    ].join('\n'),
  );
} finally {
  const stopStarted = performance.now();
  await fleet.stop();
  console.log(`box stopped in ${((performance.now() - stopStarted) / 1000).toFixed(1)} s`);
  rmSync(work, { recursive: true, force: true });
}
if (failed) process.exitCode = 1;
