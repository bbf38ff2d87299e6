import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ResultPromise } from 'execa';
import { type DataFile, DataFileSchema, type RunFile, RunFileSchema } from '../../src/artifacts/index.js';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  findFleetBlocker,
  isManifestPut,
  isStoredWrite,
  isUploadRequest,
  readRegistryTruth,
  startFleet,
  toRepository,
  type RegistryTruthLine,
  type RunningFleet,
  type StartFleetOptions,
} from '../fleet/index.js';
import { unionMs } from '../fleet/outside-truth.js';

export { readCgroupCpuSeconds, readSccacheServerSeconds, sampleCgroupCpu } from '../fleet/outside-truth.js';
import { createTempDir } from '../helpers/daemons/index.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';

// Shared by the harness e2e tests: spawn the built CLI against the fleet in a box, read what a run left.

/** The built CLI against the box: the box's PATH, DOCKER_CONFIG and state file, its fleet.yaml, and `env`. */
export function spawnCli(
  fleet: RunningFleet,
  args: readonly string[],
  env: Record<string, string> = {},
): ResultPromise<{ reject: false }> {
  return runBuiltCli(args, { env: { ...fleet.env, PERF_FLEET: fleet.fleetPath, ...env } });
}

export const readRun = (runDir: string): RunFile =>
  RunFileSchema.parse(JSON.parse(readFileSync(path.join(runDir, 'run.json'), 'utf8')));
export const readData = (runDir: string): DataFile =>
  DataFileSchema.parse(JSON.parse(readFileSync(path.join(runDir, 'data.json'), 'utf8')));
export const readLines = (file: string): Record<string, unknown>[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** The run dir a CLI call printed as its last stdout line. */
export function runDirOf(stdout: string): string {
  const dir = stdout.trim().split('\n').at(-1) ?? '';
  if (!existsSync(path.join(dir, 'run.json'))) throw new Error(`no run dir in stdout: ${stdout}`);
  return dir;
}

/** How many disjoint stretches the union of the intervals has. */
function countSegments(intervals: readonly (readonly [number, number])[]): number {
  let count = 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const [start, stop] of [...intervals].sort((x, y) => x[0] - y[0])) {
    if (start > end) count++;
    end = Math.max(end, stop);
  }
  return count;
}

/** What the registry proxy saw of one target: its node's requests during the target's run interval. */
export interface UploadTruth {
  node: string;
  /** Every request of the target (reads too), in arrival order. */
  requests: RegistryTruthLine[];
  /** Union of [first byte, response end] of its upload requests (POST/PUT/PATCH), seconds. */
  uploadSeconds: number;
  /** How many separate stretches that union has (each start and end is an edge a client sees a little earlier or later). */
  uploadSegments: number;
  /** Request body bytes of its upload requests, failed attempts included: what crossed its link. */
  uploadBytes: number;
  /** Upload requests the proxy failed on purpose (BuildKit retried them). */
  injectedFailures: number;
  /** Upload bytes ÷ the node's shaped link rate: the least time they can take. */
  linkSeconds: number;
}

/**
 * The proxy's requests attributed to the run's targets. Rule (docs/fleet-in-a-box.md): a request belongs to the
 * target that was running on the requesting address's node when the request's first byte arrived (run.json's
 * startedAtMs…finishedAtMs). A node runs one bake at a time, so this is exact; repository alone is not (the
 * cache repository is shared by every target).
 */
export function readUploadTruth(
  fleet: RunningFleet,
  run: RunFile,
  servicesClockOffsetMs = 0,
): Map<string, UploadTruth> {
  const lines = readTrueTimes(fleet, servicesClockOffsetMs);
  const truth = new Map<string, UploadTruth>();
  for (const [target, outcome] of Object.entries(run.targets)) {
    if (outcome.status !== 'ok' && outcome.status !== 'failed') continue;
    const node = fleet.nodes.find((candidate) => candidate.name === outcome.node);
    if (!node) throw new Error(`${target} ran on ${outcome.node}, which is not a box node`);
    const requests = lines.filter(
      (line) =>
        line.clientIp === node.address &&
        line.firstByteMs >= outcome.startedAtMs &&
        line.firstByteMs <= outcome.finishedAtMs,
    );
    const uploads = requests.filter(isUploadRequest);
    const uploadBytes = uploads.reduce((sum, line) => sum + line.requestBytes, 0);
    truth.set(target, {
      node: node.name,
      requests,
      uploadSeconds: unionMs(uploads.map((line) => [line.firstByteMs, line.endMs])) / 1000,
      uploadSegments: countSegments(uploads.map((line) => [line.firstByteMs, line.endMs])),
      uploadBytes,
      injectedFailures: uploads.filter((line) => line.injected).length,
      linkSeconds: uploadBytes / (node.linkMbps * 1e6),
    });
  }
  return truth;
}

/**
 * The proxy's record on the true clock: a box started with `clockOffsetSeconds.services` writes it on a clock that
 * far off, which the test knows (it set it) and takes back out, so requests are attributed as they really fell.
 */
function readTrueTimes(fleet: RunningFleet, servicesClockOffsetMs: number): RegistryTruthLine[] {
  return readRegistryTruth(fleet.services.registryTruthPath).map((line) => ({
    ...line,
    firstByteMs: line.firstByteMs - servicesClockOffsetMs,
    endMs: line.endMs - servicesClockOffsetMs,
  }));
}

/** Bytes the registry stored (201 blob and manifest PUTs) from the fleet's nodes during the run, cache vs image. */
export function readStoredBytes(
  fleet: RunningFleet,
  run: RunFile,
  servicesClockOffsetMs = 0,
): { cache: number; image: number } {
  const addresses = new Set(fleet.nodes.map((node) => node.address));
  const to = run.finishedAtMs ?? Number.POSITIVE_INFINITY;
  const stored = { cache: 0, image: 0 };
  for (const line of readTrueTimes(fleet, servicesClockOffsetMs)) {
    if (!addresses.has(line.clientIp) || line.firstByteMs < run.startedAtMs || line.firstByteMs > to)
      continue;
    if (!isStoredWrite(line)) continue;
    const repository = toRepository(line.path) ?? '';
    stored[repository.endsWith('/cache') ? 'cache' : 'image'] += line.requestBytes;
  }
  return stored;
}

export function listRunDirs(root: string): string[] {
  return existsSync(root) ? readdirSync(root).filter((name) => !name.startsWith('.')) : [];
}

/** Files every finished run dir holds, per the issue. */
export function expectedRunFiles(targets: readonly string[]): string[] {
  return [
    'samples.jsonl',
    'sccache.log',
    'zot.jsonl',
    'artifacts.txt',
    'run.json',
    'plan.json',
    'data.json',
    'report.md',
    'index.html',
    'run.log',
    ...targets.flatMap((target) => [`trace-${target}.json`, `status-${target}.jsonl`]),
  ];
}

interface JaegerSpan {
  operationName: string;
  startTime: number;
  duration: number;
  tags: { key: string; value: unknown }[];
}

/**
 * For a failed comparison: each upload span of the target's trace beside the proxy's record of that request
 * (matched by method, path and nearest start), times relative to the target's start.
 */
export function formatUploadAlignment(
  runDir: string,
  target: string,
  truth: UploadTruth,
  startMs: number,
): string {
  const trace = JSON.parse(readFileSync(path.join(runDir, `trace-${target}.json`), 'utf8')) as {
    data: { spans: JaegerSpan[] }[];
  };
  const spans = (trace.data[0]?.spans ?? [])
    .filter((span) => /^HTTP (PUT|POST|PATCH)$/.test(span.operationName))
    .sort((a, b) => a.startTime - b.startTime);
  const lines = truth.requests.filter(isUploadRequest);
  const used = new Set<RegistryTruthLine>();
  const at = (ms: number) => (ms - startMs).toFixed(1).padStart(8);
  return spans
    .map((span) => {
      const full = span.tags.find((tag) => tag.key === 'url.full')?.value;
      const url = new URL(typeof full === 'string' ? full : 'http://x/');
      const method = span.operationName.slice(5);
      const [s, e] = [span.startTime / 1000, (span.startTime + span.duration) / 1000];
      const match = lines
        .filter(
          (line) => !used.has(line) && line.method === method && line.path === url.pathname + url.search,
        )
        .sort((a, b) => Math.abs(a.firstByteMs - s) - Math.abs(b.firstByteMs - s))[0];
      if (match) used.add(match);
      const server = match
        ? `proxy [${at(match.firstByteMs)}, ${at(match.endMs)}] ${match.status}`
        : 'proxy —';
      return `    ${method.padEnd(4)} ${url.pathname.slice(4, 40).padEnd(36)} trace [${at(s)}, ${at(e)}] ${server}`;
    })
    .join('\n');
}

/**
 * Upload figures within 2 % plus 25 ms per stretch of the proxy's union (why: docs/fleet-in-a-box.md, "Truth"):
 * each stretch has a start the client sees before the proxy does and an end it sees after.
 */
const uploadShare = 0.02;
const uploadSlackSecondsPerStretch = 0.025;

export function isUploadWithin(reported: number | null, truth: number, stretches: number): boolean {
  return (
    reported !== null &&
    Math.abs(reported - truth) <= uploadShare * truth + uploadSlackSecondsPerStretch * Math.max(1, stretches)
  );
}

interface NginxTruthLine {
  msec: number;
  remote_addr: string;
  method: string;
  uri: string;
  status: number;
}

/** sccache hits, misses and writes per node under the run's prefix, from nginx's own log (on the true clock). */
export function readSccacheTruth(
  fleet: RunningFleet,
  run: RunFile,
  servicesClockOffsetMs = 0,
): Record<string, { hits: number; misses: number; writes: number }> {
  const byAddress = new Map(fleet.nodes.map((node) => [node.address, node.name]));
  const from = run.measuredStartedAtMs ?? run.startedAtMs;
  const to = run.finishedAtMs ?? Number.POSITIVE_INFINITY;
  const counts: Record<string, { hits: number; misses: number; writes: number }> = {};
  for (const text of readFileSync(fleet.services.nginxLogPath, 'utf8').split('\n')) {
    if (!text) continue;
    const line = JSON.parse(text) as NginxTruthLine;
    const atMs = line.msec * 1000 - servicesClockOffsetMs;
    const node = byAddress.get(line.remote_addr);
    if (!node || atMs < from || atMs > to) continue;
    if (!line.uri.startsWith(`/sccache/${run.sccachePrefix}/`) || line.uri.endsWith('.sccache_check'))
      continue;
    const entry = (counts[node] ??= { hits: 0, misses: 0, writes: 0 });
    if (line.method === 'GET' && (line.status === 200 || line.status === 206)) entry.hits += 1;
    if (line.method === 'GET' && line.status === 404) entry.misses += 1;
    if (line.method === 'PUT' && (line.status === 201 || line.status === 204)) entry.writes += 1;
  }
  return counts;
}

/** One line per target: the report's upload seconds and bytes, the proxy's, and bytes ÷ link. */
export function formatUploadTable(
  targets: readonly {
    target: string;
    node: string;
    uploadSeconds: number | null;
    uploadBytes: number | null;
  }[],
  truth: ReadonlyMap<string, UploadTruth>,
): string {
  return targets
    .map((summary) => {
      const entry = truth.get(summary.target);
      if (!entry)
        return `${summary.target} on ${summary.node}: ${summary.uploadSeconds?.toFixed(3) ?? '—'} s (no truth)`;
      const reported = summary.uploadSeconds ?? Number.NaN;
      const off =
        entry.uploadSeconds > 0
          ? ` (${(((reported - entry.uploadSeconds) / entry.uploadSeconds) * 100).toFixed(2)} %)`
          : '';
      return `${summary.target} on ${summary.node}: report ${reported.toFixed(3)} s / ${summary.uploadBytes} B, proxy ${entry.uploadSeconds.toFixed(3)} s${off} in ${entry.uploadSegments} stretches, Δ ${((reported - entry.uploadSeconds) * 1000).toFixed(1)} ms / ${entry.uploadBytes} B, bytes ÷ link ${entry.linkSeconds.toFixed(3)} s, injected failures ${entry.injectedFailures}`;
    })
    .join('\n  ');
}

export interface HarnessBox {
  /** The running fleet and the runs root; throws when the fleet did not start. */
  box: () => { fleet: RunningFleet; root: string };
  /** Run dirs by the name a test gave them. */
  runs: Record<string, string>;
  /** Spawn `rocm-perf <args>` on the box, expect exit 0, remember and return its run dir. */
  runHarness: (name: string, args: string[]) => Promise<string>;
}

export interface UseHarnessBoxOptions {
  fleet: StartFleetOptions;
  rootName: string;
  sampleIntervalMs: number;
}

/** One fleet in a box and one runs root for a test file: started in beforeAll, removed in afterAll. */
export function useHarnessBox({
  fleet: fleetOptions,
  rootName,
  sampleIntervalMs,
}: UseHarnessBoxOptions): HarnessBox {
  let fleet: RunningFleet | undefined;
  let root: { path: string; remove: () => void } | undefined;
  const runs: Record<string, string> = {};
  beforeAll(async () => {
    const blocker = findFleetBlocker();
    if (blocker) throw new Error(blocker);
    fleet = await startFleet(fleetOptions);
    root = createTempDir(rootName);
  }, 120_000);
  afterAll(async () => {
    await fleet?.stop();
    root?.remove();
  });
  const box = () => {
    if (!fleet || !root) throw new Error('the fleet did not start (see the beforeAll error)');
    return { fleet, root: root.path };
  };
  const runHarness = async (name: string, args: string[]): Promise<string> => {
    const { fleet: running, root: dir } = box();
    const result = await spawnCli(running, [
      ...args,
      '--root',
      dir,
      '--sample-interval-ms',
      String(sampleIntervalMs),
    ]);
    expect(result.exitCode, `${args.join(' ')} failed:\n${String(result.stderr).slice(-3000)}`).toBe(0);
    runs[name] = runDirOf(String(result.stdout));
    return runs[name];
  };
  return { box, runs, runHarness };
}

/** Each box target's `target:` dependencies, from the box's bake print. */
export function readDependencies(fleet: RunningFleet): Map<string, string[]> {
  const print = JSON.parse(readFileSync(fleet.files.bakePrintPath, 'utf8')) as {
    target: Record<string, { contexts?: Record<string, string> }>;
  };
  return new Map(
    Object.entries(print.target).map(([name, spec]) => [
      name,
      Object.values(spec.contexts ?? {})
        .filter((value) => value.startsWith('target:'))
        .map((value) => value.slice('target:'.length)),
    ]),
  );
}

/** When the proxy finished storing the target's image manifest during the run (its tag PUT, 201), proxy clock. */
export function readImageManifestStoredMs(
  fleet: RunningFleet,
  run: RunFile,
  target: string,
): number | undefined {
  const to = run.finishedAtMs ?? Number.POSITIVE_INFINITY;
  const stored = readRegistryTruth(fleet.services.registryTruthPath).filter(
    (line) =>
      isStoredWrite(line) &&
      isManifestPut(line) &&
      toRepository(line.path)?.endsWith(`/${target}`) === true &&
      line.firstByteMs >= run.startedAtMs &&
      line.firstByteMs <= to,
  );
  return stored.length > 0 ? Math.min(...stored.map((line) => line.endMs)) : undefined;
}

/** The run as the registry saw it: the fleet's first request and the last stored write, proxy clock. */
export function readRunWindow(fleet: RunningFleet, run: RunFile): { firstMs: number; lastMs: number } {
  const addresses = new Set(fleet.nodes.map((node) => node.address));
  const to = run.finishedAtMs ?? Number.POSITIVE_INFINITY;
  const lines = readRegistryTruth(fleet.services.registryTruthPath).filter(
    (line) => addresses.has(line.clientIp) && line.firstByteMs >= run.startedAtMs && line.firstByteMs <= to,
  );
  if (lines.length === 0) throw new Error(`the proxy saw no request during run ${run.stamp}`);
  return {
    firstMs: Math.min(...lines.map((line) => line.firstByteMs)),
    lastMs: Math.max(...lines.filter(isStoredWrite).map((line) => line.endMs)),
  };
}
