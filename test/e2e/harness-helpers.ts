import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { type DataFile, DataFileSchema, type RunFile, RunFileSchema } from '../../src/artifacts/index.js';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  findFleetBlocker,
  readFleetState,
  startFleet,
  type RunningFleet,
  type StartFleetOptions,
} from '../fleet/index.js';
import { createTempDir } from '../helpers/daemons/index.js';

// Shared by the harness e2e tests: spawn the built CLI against the fleet in a box, read what a run left.

export const repoRoot = path.resolve(import.meta.dirname, '../..');
const bin = path.join(repoRoot, 'bin/rocm-perf.js');

export function spawnCli(
  fleet: RunningFleet,
  args: readonly string[],
  env: Record<string, string> = {},
): ResultPromise<{ reject: false }> {
  return execa('node', [bin, ...args], {
    cwd: repoRoot,
    env: {
      ...fleet.env,
      HOME: process.env.HOME ?? '/root',
      NO_COLOR: '1',
      PERF_FLEET: fleet.fleetPath,
      ...env,
    },
    extendEnv: false,
    reject: false,
  });
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

export interface TruthEntry {
  node: string;
  imageUploadedBytes: number;
  cacheUploadedBytes: number;
  buildStepsMs: number;
  /** [startMs, endMs] of every upload request the box made for the target (blob POST/PUT, manifest PUT). */
  uploadSpansMs: [number, number][];
  /** Union of uploadSpansMs in seconds: what the box injected, by data.json's definition of uploadSeconds. */
  uploadSeconds: number;
  injectedBuildSeconds: number;
  /** image + cache bytes over the node's shaped link: theory, printed for information. */
  linkUploadSeconds: number;
}

/** What the box did for each target of a run, from the double's history records (its injected truth). */
export function readTruth(fleet: RunningFleet, run: RunFile): Map<string, TruthEntry> {
  const state = readFleetState(fleet.statePath);
  const truth = new Map<string, TruthEntry>();
  for (const [target, outcome] of Object.entries(run.targets)) {
    if (outcome.status !== 'ok' || !outcome.buildRef) continue;
    const id = outcome.buildRef.split('/').at(-1) ?? '';
    const record = JSON.parse(
      readFileSync(path.join(state.stateDir, 'history', outcome.node, `${id}.json`), 'utf8'),
    ) as {
      truth: {
        imageUploadedBytes: number;
        cacheUploadedBytes: number;
        buildStepsMs: number;
        uploadSpansMs: [number, number][];
        uploadSeconds: number;
      };
    };
    const linkMbps = run.nodes.find((node) => node.name === outcome.node)?.linkMbps ?? 1;
    const bytes = record.truth.imageUploadedBytes + record.truth.cacheUploadedBytes;
    const { imageUploadedBytes, cacheUploadedBytes, buildStepsMs, uploadSpansMs, uploadSeconds } =
      record.truth;
    truth.set(target, {
      node: outcome.node,
      imageUploadedBytes,
      cacheUploadedBytes,
      buildStepsMs,
      uploadSpansMs,
      uploadSeconds,
      injectedBuildSeconds: state.targets[target]?.buildSeconds ?? Number.NaN,
      linkUploadSeconds: bytes / (linkMbps * 1e6),
    });
  }
  return truth;
}

const MANIFEST_ACCEPT =
  'application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json, */*';

/** Bytes of the manifests a target pushed (image tag, and cache ref when exported), as the registry stores them. */
export async function fetchManifestBytes(
  fleet: RunningFleet,
  namespace: string,
  target: string,
  withCache: boolean,
): Promise<number> {
  const print = JSON.parse(readFileSync(fleet.files.bakePrintPath, 'utf8')) as {
    target: Record<string, { tags?: string[]; 'cache-to'?: (string | { ref?: string })[] }>;
  };
  const spec = print.target[target];
  const refs = [
    spec?.tags?.[0],
    ...(withCache
      ? (spec?.['cache-to'] ?? []).map((entry) =>
          typeof entry === 'string' ? /ref=([^,]+)/.exec(entry)?.[1] : entry.ref,
        )
      : []),
  ];
  let total = 0;
  for (const ref of refs) {
    if (!ref) continue;
    const [, repository = '', reference = ''] = /^[^/]+\/[^/]+\/(.+):([^:]+)$/.exec(ref) ?? [];
    const response = await fetch(
      `${fleet.services.upstreamRegistryUrl}/v2/${namespace}/${repository}/manifests/${reference}`,
      { method: 'HEAD', headers: { accept: MANIFEST_ACCEPT } },
    );
    if (response.status !== 200)
      throw new Error(`HEAD ${namespace}/${repository}:${reference} answered ${response.status}`);
    total += Number(response.headers.get('content-length'));
  }
  return total;
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

/** data.json rounds seconds to 3 digits: ±0.5 ms of the figure is rounding, not measurement. */
const ROUNDING_SECONDS = 0.0005;

/** Whether a data.json figure is within `share` of the truth (plus data.json's rounding). */
export function isWithin(reported: number | null, truth: number, share: number): boolean {
  return reported !== null && Math.abs(reported - truth) <= share * truth + ROUNDING_SECONDS;
}

/** One line per target: the report's upload seconds, the box's truth, and bytes ÷ link (theory, information only). */
export function formatUploadTable(
  targets: readonly { target: string; node: string; uploadSeconds: number | null }[],
  truth: ReadonlyMap<string, TruthEntry>,
): string {
  return targets
    .map((summary) => {
      const entry = truth.get(summary.target);
      if (!entry)
        return `${summary.target} on ${summary.node}: ${summary.uploadSeconds?.toFixed(3) ?? '—'} s (no truth: not ok)`;
      const reported = summary.uploadSeconds ?? Number.NaN;
      const off =
        entry.uploadSeconds > 0
          ? ` (${(((reported - entry.uploadSeconds) / entry.uploadSeconds) * 100).toFixed(1)} %)`
          : '';
      return `${summary.target} on ${summary.node}: report ${reported.toFixed(3)} s, box ${entry.uploadSeconds.toFixed(3)} s${off}, bytes ÷ link ${entry.linkUploadSeconds.toFixed(3)} s`;
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
