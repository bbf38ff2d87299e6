import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlan } from '../../src/plan/index.js';
import { type ReplayResult } from '../../src/plan/replay-run.js';
import { PlanFileSchema, RUN_VERSION, type RunFile } from '../../src/artifacts/index.js';
import { writePlanFile } from '../../src/run-dir/plan-file-io.js';
import { createRunFileWriter } from '../../src/run/harness/record/run-file-writer.js';
import { repoRoot, runBuiltCli } from '../helpers/run-built-cli.js';

// `rocm-perf plan --from-run RUN`, spawned from the built CLI (`npm test` builds first) against run dirs this test
// writes with the project's own writers: plan.json (writePlanFile), run.json (the harness's run file writer) and
// trace-<target>.json as `docker buildx history trace` Jaeger JSON.

const T0_MS = Date.UTC(2026, 2, 14, 9, 20);

function runCli(args: string[]) {
  return runBuiltCli(['plan', '--fleet', path.join(repoRoot, 'fleet.yaml'), ...args]);
}

// anvil 100 MB/s; kiln 5 MB/s; forge 200 MB/s at double speed. pytorch → wheel; tool alone.
const nodes = [
  { name: 'anvil', builder: 'anvil', linkMbps: 100, speed: 1 },
  { name: 'kiln', builder: 'kiln', linkMbps: 5, speed: 1 },
  { name: 'forge', builder: 'forge', linkMbps: 200, speed: 2 },
];
const recorded = {
  pytorch: { node: 'anvil', startSeconds: 0, finishSeconds: 1040, buildSeconds: 1000, uploads: [2e9, 1e9] },
  tool: { node: 'forge', startSeconds: 0, finishSeconds: 105, buildSeconds: 100, uploads: [1e8] },
  wheel: { node: 'kiln', startSeconds: 1045, finishSeconds: 1900, buildSeconds: 400, uploads: [2e9] },
};
const costsText = [
  'build pytorch 900',
  'build tool 150',
  'build wheel 500',
  'cache pytorch 6000000000',
  'cache tool 100000000',
  'cache wheel 1000000000',
  '',
].join('\n');

/**
 * A Jaeger document: bake root → Solve server span → one step span, then one `HTTP PUT` client span per upload, one
 * after another at the node's link rate. What the record holds beyond both is the target's setup.
 */
function renderJaegerTrace(target: string, entry: (typeof recorded)[keyof typeof recorded]): string {
  const us = (seconds: number) => (T0_MS + seconds * 1000) * 1000;
  const child = (
    spanID: string,
    parent: string,
    operationName: string,
    from: number,
    to: number,
    tags: { key: string; type: string; value: string | number }[],
  ) => ({
    traceID: 'a1b2c3d4e5f60718',
    spanID,
    operationName,
    references: [{ refType: 'CHILD_OF', traceID: 'a1b2c3d4e5f60718', spanID: parent }],
    startTime: us(from),
    duration: (to - from) * 1e6,
    tags,
    processID: spanID === 'root' ? 'p1' : 'p2',
  });
  const buildEnd = entry.startSeconds + entry.buildSeconds;
  const bytesPerSecond = nodes.find((node) => node.name === entry.node)!.linkMbps * 1e6;
  const uploadStarts = entry.uploads.map((_, k) =>
    entry.uploads.slice(0, k).reduce((at, bytes) => at + bytes / bytesPerSecond, buildEnd),
  );
  const spans = [
    {
      ...child('root', '0000000000000000', `bake ${target}`, entry.startSeconds, entry.finishSeconds, []),
      references: [],
    },
    child('solve', 'root', 'moby.buildkit.v1.Control/Solve', entry.startSeconds, entry.finishSeconds, [
      { key: 'span.kind', type: 'string', value: 'server' },
    ]),
    child('step1', 'solve', `[${target} 1/1] RUN make -j64`, entry.startSeconds, buildEnd, [
      { key: 'vertex', type: 'string', value: 'sha256:0123' },
    ]),
    ...entry.uploads.map((bytes, k) =>
      child(`put${k}`, 'solve', 'HTTP PUT', uploadStarts[k]!, uploadStarts[k]! + bytes / bytesPerSecond, [
        { key: 'span.kind', type: 'string', value: 'client' },
        { key: 'http.method', type: 'string', value: 'PUT' },
        {
          key: 'http.url',
          type: 'string',
          value: `http://registry.fleet.lan:5000/v2/rocm/${target}/blobs/uploads/u${k}?digest=sha256%3Aab${k}`,
        },
        { key: 'http.status_code', type: 'int64', value: 201 },
        { key: 'http.request_content_length', type: 'int64', value: bytes },
      ]),
    ),
  ];
  return JSON.stringify({
    data: [
      {
        traceID: 'a1b2c3d4e5f60718',
        spans,
        processes: { p1: { serviceName: 'buildx', tags: [] }, p2: { serviceName: 'buildkitd', tags: [] } },
      },
    ],
  });
}

async function writeRunDir(dir: string, harness: 'warm' | 'cold'): Promise<string> {
  await mkdir(dir, { recursive: true });
  const graph = { targets: Object.keys(recorded), deps: { pytorch: [], tool: [], wheel: ['pytorch'] } };
  const costs = new Map(
    Object.entries(recorded).map(([name, entry]) => [
      name,
      { buildSeconds: entry.buildSeconds, cacheBytes: 1e9 },
    ]),
  );
  await writePlanFile(
    dir,
    createPlan({ graph, costs, nodes, arch: 'gfx1201', createdAt: '2026-03-14T09:00:00.000Z' }),
  );
  const targets: RunFile['targets'] = {};
  for (const [name, entry] of Object.entries(recorded)) {
    targets[name] = {
      status: 'ok',
      node: entry.node,
      startedAtMs: T0_MS + entry.startSeconds * 1000,
      finishedAtMs: T0_MS + entry.finishSeconds * 1000,
    };
    await writeFile(path.join(dir, `trace-${name}.json`), renderJaegerTrace(name, entry));
  }
  const run: RunFile = {
    version: RUN_VERSION,
    stamp: path.basename(dir),
    harness,
    mode: harness,
    namespace: harness === 'cold' ? 'rocm-coldrun' : 'rocm',
    arch: 'gfx1201',
    sccachePrefix: 'rocm/gfx1201',
    liveSccachePrefix: 'rocm/gfx1201',
    fleetPath: 'fleet.yaml',
    status: 'completed',
    startedAtMs: T0_MS - 60_000,
    measuredStartedAtMs: T0_MS,
    finishedAtMs: T0_MS + 1_900_000,
    exitCode: 0,
    nodes,
    targets,
    bootstrapped: [],
    registryCachePatterns: ['*/cache:*'],
    registryLogFormat: 'zot',
    warnings: [],
  };
  await createRunFileWriter(dir, run).update(() => undefined);
  return dir;
}

describe('rocm-perf plan --from-run (CLI)', () => {
  let root = '';
  let warm = '';
  let cold = '';
  let costsFile = '';
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'rocm-perf-replay-'));
    warm = await writeRunDir(path.join(root, '20260314T092000Z'), 'warm');
    cold = await writeRunDir(path.join(root, '20260313T220000Z'), 'cold');
    costsFile = path.join(root, 'target-costs');
    await writeFile(costsFile, costsText);
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('replays a warm run with measured costs on a changed fleet (--json)', async () => {
    const result = await runCli([
      '--from-run',
      warm,
      '--link',
      'kiln=100',
      '--drop-node',
      'forge',
      '--costs',
      costsFile,
      '--json',
    ]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const replay = JSON.parse(result.stdout) as ReplayResult;
    // Setup: what each record holds beyond its step span and its uploads (pytorch 1040 − 1000 − 30 s, tool
    // 105 − 100 − 0.5 s on forge, wheel 855 − 400 − 400 s).
    const fromTraces = { buildFrom: 'trace', bytesFrom: 'trace', setupFrom: 'trace' };
    expect(replay.costs.pytorch).toEqual({
      ...fromTraces,
      buildSeconds: 1000,
      cacheBytes: 3e9,
      setupSeconds: 10,
    });
    expect(replay.costs.tool).toEqual({
      ...fromTraces,
      buildSeconds: 200,
      cacheBytes: 1e8,
      setupSeconds: 4.5,
    });
    expect(replay.costs.wheel).toEqual({
      ...fromTraces,
      buildSeconds: 400,
      cacheBytes: 2e9,
      setupSeconds: 55,
    });
    expect(replay.actualMakespanSeconds).toBe(1900);
    // anvil: pytorch 1000 + 30 + 10 s; kiln: wheel after it, 400 + 2 GB at 5 MB/s + 55 = 855 s. The run started
    // wheel 5 s after pytorch finished: that lag is all the model misses.
    expect(replay.baselineMakespanSeconds).toBe(1895);
    expect(replay.recordedQueuesOnChangedFleetSeconds).toBeNull();
    // kiln at 100 MB/s: wheel takes 400 + 20 + 55 s after pytorch's 1040: the chain is the bound.
    expect(replay.predictedMakespanSeconds).toBe(1515);
    expect(replay.deltaSeconds).toBe(-380);
    expect(replay.fleetChanges).toEqual(['dropped forge', 'kiln link 5 → 100 MB/s']);
  });

  it('prints the comparison, takes a stamp under --root and writes the predicted plan with --out', async () => {
    const out = path.join(root, 'predicted');
    const result = await runCli([
      '--from-run',
      path.basename(warm),
      '--root',
      root,
      '--strategy',
      'lpt',
      '--costs',
      costsFile,
      '--out',
      out,
    ]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^what-if replay of run 20260314T092000Z \(warm, planned with heft-ls\)$/m);
    expect(result.stdout).toMatch(/^actual \(run\.json\) +31m40s$/m);
    expect(result.stdout).toMatch(
      /^baseline: recorded queues, recorded fleet +31m35s +model vs actual −5.00s$/m,
    );
    expect(result.stdout).toMatch(
      /^predicted: lpt, recorded fleet +\S+ +[−+±]\S+ \([−+][\d.]+ %\) vs baseline$/m,
    );
    expect(result.stderr).toBe(`wrote ${path.join(out, 'plan.json')}`);
    expect(
      PlanFileSchema.parse(JSON.parse(await readFile(path.join(out, 'plan.json'), 'utf8'))).strategy,
    ).toBe('lpt');
  });

  it('takes a cold run’s bytes from its traces (its image push), and its fallbacks from the cold cost set', async () => {
    const result = await runCli(['--from-run', cold, '--costs', costsFile, '--json']);
    expect(result.exitCode).toBe(0);
    const replay = JSON.parse(result.stdout) as ReplayResult;
    expect(replay.costs.pytorch).toEqual({
      buildSeconds: 1000,
      cacheBytes: 3e9,
      setupSeconds: 10,
      buildFrom: 'trace',
      bytesFrom: 'trace',
      setupFrom: 'trace',
    });
    expect(replay.notes).toEqual([]);
    // The same uploads as the warm run's traces: the same baseline.
    expect(replay.baselineMakespanSeconds).toBe(1895);
    // Without wheel's trace, its figures come from the target costs as a cold plan takes them: its `image` line.
    const partial = path.join(root, '20260313T230000Z');
    await writeRunDir(partial, 'cold');
    await rm(path.join(partial, 'trace-wheel.json'));
    const withImage = path.join(root, 'target-costs.image');
    await writeFile(withImage, `${costsText}image wheel 500000000\n`);
    const fallback = JSON.parse(
      (await runCli(['--from-run', partial, '--costs', withImage, '--json'])).stdout,
    ) as ReplayResult;
    expect(fallback.costs.wheel).toMatchObject({
      buildSeconds: 500,
      cacheBytes: 5e8,
      bytesFrom: 'target-costs',
    });
  });

  it('rejects fleet edits without --from-run, unknown nodes and missing run dirs with exit 2', async () => {
    const noRun = await runCli(['--link', 'kiln=110']);
    expect(noRun.exitCode).toBe(2);
    expect(noRun.stderr).toContain('error: --link: fleet edits apply to a recorded run; add --from-run RUN');
    const unknown = await runCli(['--from-run', warm, '--costs', costsFile, '--speed', 'smithy=2']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toBe(
      'error: --speed smithy: no node `smithy` in the fleet\nhint: nodes: anvil, forge, kiln',
    );
    const missing = await runCli(['--from-run', path.join(root, 'nope')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/^error: --from-run .*nope: no such run dir/);
  });
});
