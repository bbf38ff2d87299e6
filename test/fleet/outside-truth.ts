// Figures measured beside the product, for tests and scripts that check it against what happened outside its
// measured path: a union of intervals computed apart from the product's, each node's cgroup CPU over time, and what
// a build costs a node beyond its CPU (the target's build without its CPU, on that node's builder).
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { readCpuUsageNs } from './node-cgroups.js';
import type { FleetNodeHandle, RunningFleet } from './start-fleet.js';

/** Length of the union of [startMs, endMs] intervals, in ms: written here, apart from the product's own. */
export function unionMs(intervals: readonly (readonly [number, number])[]): number {
  let total = 0;
  let open: [number, number] | undefined;
  for (const [start, end] of [...intervals].sort((x, y) => x[0] - y[0])) {
    if (open && start <= open[1]) open[1] = Math.max(open[1], end);
    else {
      if (open) total += open[1] - open[0];
      open = [start, end];
    }
  }
  return open ? total + open[1] - open[0] : total;
}

/** CPU time (s) the node's cgroup spent while the target ran (the target's bake is the only work in it then). */
export function readCgroupCpuSeconds(
  samples: readonly CgroupSample[],
  startMs: number,
  endMs: number,
): number {
  const at = (ms: number) => {
    const after = samples.findIndex((sample) => sample.atMs >= ms);
    if (after <= 0) return samples[Math.max(0, after)]?.usageNs ?? 0;
    const [a, b] = [samples[after - 1]!, samples[after]!];
    return a.usageNs + ((b.usageNs - a.usageNs) * (ms - a.atMs)) / (b.atMs - a.atMs);
  };
  return samples.length === 0 ? 0 : (at(endMs) - at(startMs)) / 1e9;
}

export interface CgroupSample {
  atMs: number;
  usageNs: number;
}

/** How often sampleCgroupCpu reads the counters by default (ms). */
export const cgroupSampleIntervalMs = 20;

/** Samples each node's compile cgroup cpuacct.usage every `intervalMs` until stopped (test code, beside the product). */
export function sampleCgroupCpu(
  fleet: RunningFleet,
  intervalMs = cgroupSampleIntervalMs,
): () => Map<string, CgroupSample[]> {
  const samples = new Map<string, CgroupSample[]>(fleet.nodes.map((node) => [node.name, []]));
  const take = () => {
    const atMs = Date.now();
    for (const node of fleet.nodes)
      samples.get(node.name)!.push({ atMs, usageNs: readCpuUsageNs(node.cgroup.workDirs.compileCpuacct) });
  };
  take();
  const timer = setInterval(take, intervalMs);
  return () => {
    clearInterval(timer);
    take();
    return samples;
  };
}

/**
 * Seconds nginx itself spent serving the node's sccache requests in [startMs, endMs]: the union of
 * [msec − request_time, msec] over its access-log lines from the node's address (nginx's clock, not the builder's).
 */
export function readSccacheServerSeconds(
  fleet: RunningFleet,
  address: string,
  startMs: number,
  endMs: number,
): number {
  const intervals: [number, number][] = [];
  for (const text of readFileSync(fleet.services.nginxLogPath, 'utf8').split('\n')) {
    if (!text) continue;
    const line = JSON.parse(text) as { msec: number; request_time: number; remote_addr: string };
    const end = line.msec * 1000;
    const start = end - line.request_time * 1000;
    if (line.remote_addr === address && start >= startMs && end <= endMs) intervals.push([start, end]);
  }
  return unionMs(intervals) / 1000;
}

/**
 * Seconds from the first step's start to the last step's end in a `--progress=rawjson` status stream: BuildKit's own
 * step times (every vertex but exports), read here apart from the product's trace parsing.
 */
function readStepExtentSeconds(rawjson: string): number {
  const vertices = new Map<string, { name: string; started?: string; completed?: string }>();
  for (const line of rawjson.split('\n')) {
    if (!line.startsWith('{')) continue;
    const status = JSON.parse(line) as {
      vertexes?: { digest: string; name: string; started?: string; completed?: string }[];
    };
    for (const vertex of status.vertexes ?? [])
      vertices.set(vertex.digest, { ...vertices.get(vertex.digest), ...vertex });
  }
  const steps = [...vertices.values()].filter(
    (vertex) => vertex.started && vertex.completed && !/^exporting /.test(vertex.name),
  );
  if (steps.length === 0) throw new Error('the status stream holds no finished step');
  const start = Math.min(...steps.map((step) => Date.parse(step.started!)));
  const end = Math.max(...steps.map((step) => Date.parse(step.completed!)));
  return (end - start) / 1000;
}

/**
 * What one of `target`'s builds costs its node beyond the CPU its compile spends, as the node and the host are loaded
 * now: the target's own Dockerfile and build args (from the box's real `bake --print`) with no CPU to burn
 * (BOX_CPU_SECONDS=0) and a fresh sccache prefix, its COPYs of fresh bytes so no step is cached, built on `node`'s
 * builder. So every step runs as in the target's build — the loads, FROM, the COPYs, the RUN's container, box-compile's
 * sccache lookups and writes over the node's link, the wheel it writes — but the compile. Timed by the same means as a
 * build's steps (BuildKit's step times, readStepExtentSeconds). Seconds.
 */
export async function measureStepOverhead(
  fleet: RunningFleet,
  node: string,
  target: string,
): Promise<number> {
  const dockerfile = readFileSync(path.join(fleet.dir, 'docker', `${target}.Dockerfile`), 'utf8');
  const print = JSON.parse(readFileSync(path.join(fleet.dir, 'bake-print.gfx1201.json'), 'utf8')) as {
    target: Record<string, { args?: Record<string, string> }>;
  };
  const dir = mkdtempSync(path.join(fleet.dir, `probe-${target}-`));
  const nonce = randomUUID();
  mkdirSync(path.join(dir, 'src'));
  writeFileSync(path.join(dir, 'src', 'REVISION'), '1\n');
  writeFileSync(path.join(dir, 'src', 'nonce'), `${nonce}\n`);
  const probe = dockerfile
    .split('\n')
    .map((line) =>
      line.startsWith('COPY --from=') ? `COPY src/nonce /deps/${line.split(' ')[1]!.slice(7)}` : line,
    )
    .map((line) => (line.startsWith(`COPY src/${target} `) ? 'COPY src /src' : line));
  writeFileSync(path.join(dir, 'Dockerfile'), probe.join('\n'));
  const args = {
    ...print.target[target]?.args,
    BOX_CPU_SECONDS: '0',
    SCCACHE_WEBDAV_KEY_PREFIX: `probe/${nonce}`,
  };
  const base = `docker-image://${new URL(fleet.services.registryUrl).host}/rocm/rocm-base:gfx1201`;
  const { stderr } = await promisify(execFile)(
    'docker',
    [
      'buildx',
      'build',
      '--builder',
      node,
      '--progress=rawjson',
      '--build-context',
      `rocm-base=${base}`,
      ...Object.entries(args).flatMap(([key, value]) => ['--build-arg', `${key}=${value}`]),
      dir,
    ],
    { env: { ...process.env, ...fleet.env }, maxBuffer: 64 * 1024 * 1024 },
  );
  return readStepExtentSeconds(stderr);
}

/**
 * What the node's CPU quota can cost `target`'s compile beyond CPU ÷ quota, in seconds: box-compile burns once per
 * compile unit, between its sccache round trips, and a burn that resumes after one may wait up to one CFS period for
 * the quota to refill. So compile units (BOX_UNITS, from the box's real `bake --print`) × the node's period
 * (cpu.cfs_period_us of its compile cgroup, as the kernel holds it).
 */
export function readQuotaWaitSeconds(fleet: RunningFleet, node: FleetNodeHandle, target: string): number {
  const print = JSON.parse(readFileSync(path.join(fleet.dir, 'bake-print.gfx1201.json'), 'utf8')) as {
    target: Record<string, { args?: Record<string, string> }>;
  };
  const units = Number(print.target[target]?.args?.BOX_UNITS);
  const periodUs = Number(
    readFileSync(path.join(node.cgroup.workDirs.compileCpu, 'cpu.cfs_period_us'), 'utf8'),
  );
  if (!Number.isInteger(units) || !(periodUs > 0))
    throw new Error(`no BOX_UNITS or CFS period for ${target}`);
  return (units * periodUs) / 1e6;
}
