import {
  summarizeRegistry,
  type RegistryRecord,
  type SccacheRecord,
  type TargetTrace,
} from '../../../src/collect/index.js';
import { summarizeSccache } from '../../helpers/summarize-sccache.js';
import {
  createSampleTable,
  createStreamStats,
  type RunFile,
  type Sample,
  type StreamStats,
} from '../../../src/artifacts/index.js';
import type { RunInputs, StreamInput } from '../../../src/run-dir/run-inputs.js';

// A small, hand-built run: two nodes, three targets (pytorch → triton-wheel on forge, aiter-wheel on strix).

export const T0 = 1_773_480_000_000;

const nodeByAddress: Record<string, string> = { '10.0.0.1': 'forge', '10.0.0.2': 'strix' };

/** What the readers give the report: the records, attributed to nodes as the parsers do, summarised. */
function summarizeWithNodes<R extends RegistryRecord | SccacheRecord, S>(
  summarize: (records: R[], options: { livePrefix: string; runPrefix: string | undefined }) => S,
  records: R[],
  runPrefix: string | undefined,
): S {
  const withNodes = records.map((record) => {
    const node = nodeByAddress[record.clientAddress];
    return node === undefined ? record : { ...record, node };
  });
  return summarize(withNodes, { livePrefix: 'rocm/gfx1201', runPrefix });
}
const S = 1000;

function stats(source: string, overrides: Partial<StreamStats> = {}): StreamStats {
  return { ...createStreamStats(source), bytes: 100, lines: 2, records: 2, ...overrides };
}

export function stream(name: string, overrides: Partial<StreamStats> = {}, present = true): StreamInput {
  return { name, present, stats: stats(name, overrides) };
}

function trace(
  target: string,
  startS: number,
  buildS: [number, number],
  endS: number,
  uploadBytes: number,
): TargetTrace {
  return {
    target,
    startMs: T0 + startS * S,
    endMs: T0 + endS * S,
    totalSeconds: endS - startS,
    buildStartMs: T0 + buildS[0] * S,
    buildEndMs: T0 + buildS[1] * S,
    buildSeconds: buildS[1] - buildS[0],
    steps: [
      {
        name: `[${target} 1/1] RUN make`,
        startMs: T0 + buildS[0] * S,
        endMs: T0 + buildS[1] * S,
        cached: false,
        instruction: 'RUN make',
      },
    ],
    uploads: [
      {
        startMs: T0 + buildS[1] * S,
        endMs: T0 + (endS - 1) * S,
        method: 'PUT',
        url: `/v2/rocm/${target}/blobs/uploads/u`,
        status: 201,
        bytes: uploadBytes,
        kind: 'cache',
      },
    ],
    cachedSteps: 0,
    totalSteps: 1,
  };
}

/** 601 scrapes a second apart; the 30 from 300 s failed (an outage wider than one LTTB bucket of the page). */
function samples(node: string, cpu: number): Sample[] {
  return Array.from({ length: 601 }, (_, i): Sample =>
    i >= 300 && i < 330
      ? { version: 1, node, tsMs: T0 + i * S, ok: false, error: 'timeout' }
      : {
          version: 1,
          node,
          tsMs: T0 + i * S,
          ok: true,
          cpuBusyPct: i === 0 ? null : cpu,
          memUsedPct: 40,
          diskReadBps: 0,
          diskWriteBps: 0,
          netRxBps: 0,
          netTxBps: 0,
          load1: 1,
        },
  );
}

export function makeRunFile(overrides: Partial<RunFile> = {}): RunFile {
  return {
    version: 1,
    stamp: '20260314T092000Z',
    harness: 'warm',
    namespace: 'rocm',
    arch: 'gfx1201',
    sccachePrefix: 'rocm/gfx1201',
    liveSccachePrefix: 'rocm/gfx1201',
    fleetPath: '/etc/fleet.yaml',
    status: 'completed',
    startedAtMs: T0 - 60 * S,
    measuredStartedAtMs: T0,
    finishedAtMs: T0 + 600 * S,
    exitCode: 0,
    nodes: [
      { name: 'forge', builder: 'forge-builder', address: '10.0.0.1', linkMbps: 100, speed: 1 },
      { name: 'strix', builder: 'strix-builder', address: '10.0.0.2', linkMbps: 10, speed: 1 },
    ],
    targets: {
      pytorch: { status: 'ok', node: 'forge', startedAtMs: T0, finishedAtMs: T0 + 300 * S },
      'triton-wheel': { status: 'ok', node: 'forge', startedAtMs: T0 + 300 * S, finishedAtMs: T0 + 600 * S },
      'aiter-wheel': { status: 'ok', node: 'strix', startedAtMs: T0 + 300 * S, finishedAtMs: T0 + 500 * S },
    },
    bootstrapped: [],
    registryCachePatterns: ['*/cache:*'],
    registryLogFormat: 'zot',
    warnings: [],
    ...overrides,
  };
}

/** The run; its logs are summarised with the run's own key prefix, as readRunInputs does. */
export function makeRunInputs(overrides: Partial<RunInputs> = {}): RunInputs {
  const run = 'run' in overrides ? overrides.run : makeRunFile();
  return {
    stamp: '20260314T092000Z',
    lane: 'fleet',
    run,
    plan: {
      strategy: 'heft',
      makespanSeconds: 560,
      lowerBoundSeconds: 500,
      criticalPath: ['pytorch', 'triton-wheel'],
      costs: { mode: 'cold', coldBuildFor: [], fullExportFor: [] },
      targets: {
        pytorch: { node: 'forge', startSeconds: 0, finishSeconds: 280, deps: [] },
        'triton-wheel': { node: 'forge', startSeconds: 280, finishSeconds: 560, deps: ['pytorch'] },
        'aiter-wheel': { node: 'strix', startSeconds: 280, finishSeconds: 480, deps: ['pytorch'] },
      },
    },
    samples: createSampleTable([...samples('forge', 90), ...samples('strix', 30)]),
    traces: [
      trace('pytorch', 0, [5, 250], 300, 1_000_000),
      trace('triton-wheel', 300, [305, 400], 600, 6_400_000_000),
      trace('aiter-wheel', 300, [301, 450], 500, 2_000),
    ],
    sccache: summarizeWithNodes(
      summarizeSccache,
      [
        {
          tsMs: T0 + 10 * S,
          clientAddress: '10.0.0.1',
          method: 'GET',
          uri: '/sccache/rocm/gfx1201/a/b/c/abc',
          status: 200,
          kind: 'hit',
          bytes: 500,
          keyPrefix: 'rocm/gfx1201',
          durationMs: 1,
        },
        {
          tsMs: T0 + 11 * S,
          clientAddress: '10.0.0.2',
          method: 'GET',
          uri: '/sccache/rocm/gfx1201/a/b/d/abd',
          status: 404,
          kind: 'miss',
          bytes: 0,
          keyPrefix: 'rocm/gfx1201',
          durationMs: 1,
        },
        {
          tsMs: T0 + 12 * S,
          clientAddress: '10.0.0.2',
          method: 'PUT',
          uri: '/sccache/rocm/gfx1201/a/b/d/abd',
          status: 201,
          kind: 'write',
          bytes: 2048,
          keyPrefix: 'rocm/gfx1201',
          durationMs: 3,
        },
        {
          tsMs: T0 + 13 * S,
          clientAddress: '10.0.0.9',
          method: 'PROPFIND',
          uri: '/sccache/rocm/gfx1201/a/b/',
          status: 207,
          kind: 'overhead',
          bytes: 0,
          keyPrefix: 'rocm/gfx1201',
          durationMs: 1,
        },
      ],
      run?.sccachePrefix,
    ),
    registry: summarizeWithNodes(
      summarizeRegistry,
      [
        {
          tsMs: T0 + 590 * S,
          clientAddress: '10.0.0.1',
          method: 'PUT',
          path: '/v2/rocm/cache/blobs/uploads/u',
          status: 201,
          kind: 'blob-write',
          repository: 'rocm/cache',
          reference: 'sha256:a',
          bytes: 6_400_000_000,
          durationMs: null,
          isCache: true,
        },
        {
          tsMs: T0 + 591 * S,
          clientAddress: '10.0.0.1',
          method: 'PUT',
          path: '/v2/rocm/cache/manifests/triton',
          status: 201,
          kind: 'manifest-write',
          repository: 'rocm/cache',
          reference: 'triton',
          bytes: 2841,
          durationMs: null,
          isCache: true,
        },
        {
          tsMs: T0 + 592 * S,
          clientAddress: '10.0.0.1',
          method: 'PUT',
          path: '/v2/rocm/triton/manifests/latest',
          status: 201,
          kind: 'manifest-write',
          repository: 'rocm/triton',
          reference: 'latest',
          bytes: null,
          durationMs: null,
          isCache: false,
        },
        {
          tsMs: T0 + 593 * S,
          clientAddress: '10.0.0.1',
          method: 'GET',
          path: '/v2/rocm/triton/blobs/sha256:a',
          status: 200,
          kind: 'blob-read',
          repository: 'rocm/triton',
          reference: 'sha256:a',
          bytes: 10,
          durationMs: null,
          isCache: false,
        },
      ],
      run?.sccachePrefix,
    ),
    artifacts: ['triton-3.3.0-cp312-linux_x86_64.whl'],
    streams: [
      stream('samples.jsonl'),
      stream('sccache.log'),
      stream('zot.jsonl'),
      stream('trace-pytorch.json'),
      stream('artifacts.txt'),
    ],
    generatedAtMs: T0 + 700 * S,
    ...overrides,
  };
}
