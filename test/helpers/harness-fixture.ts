import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { type CreateSamplerOptions, type Sampler } from '../../src/collect/index.js';
import { SAMPLES_VERSION } from '../../src/artifacts/index.js';
import type { CommandOutcome, RunBakeOptions } from '../../src/run/executors/buildx.js';
import { localHost } from './local-host.js';
import { createTestPlan } from './create-test-plan.js';
import { writePlanFile } from '../../src/run-dir/plan-file-io.js';
import { openRunDir } from '../../src/run-dir/open-run-dir.js';
import { writeRunReport } from '../../src/explain/write-run-report.js';
import { readBuilderIdentities } from '../../src/run/harness/preflight/read-builder-identity.js';
import {
  runHarness,
  type HarnessEffects,
  type RunHarnessOptions,
} from '../../src/run/harness/run-harness.js';
import type { PreflightProbes } from '../../src/run/harness/preflight/preflight.js';
import type { ExecutableStatus } from '../../src/run/executors/check-buildx-binary.js';

// A small fleet on disk (fleet.yaml, target-costs, bake print) and fakes for every outside party of the
// harness: buildx, node_exporter, the registry, the log host. The "remote" logs are local files that the
// fake builds append to, read through the real shell commands the log capture sends.

/** A real buildx command's output, from test/fixtures/buildkit-explain/, as a successful CommandOutcome. */
const captured = (name: string): CommandOutcome => ({
  ok: true,
  exitCode: 0,
  command: 'docker buildx',
  errorTail: '',
  stdout: readFileSync(new URL(`../fixtures/buildkit-explain/${name}`, import.meta.url), 'utf8'),
});

export const FLEET_TARGETS = ['pytorch', 'a-wheel', 'b-wheel', 'c-wheel'] as const;

export function writeFleetFixture(): {
  dir: string;
  fleetPath: string;
  sccacheLog: string;
  registryLog: string;
  remove: () => void;
} {
  const dir = mkdtempSync(path.join(tmpdir(), 'rocm-perf-harness-'));
  const sccacheLog = path.join(dir, 'remote', 'sccache.json.log');
  const registryLog = path.join(dir, 'remote', 'zot.log');
  mkdirSync(path.dirname(sccacheLog));
  writeFileSync(sccacheLog, '{"before":"the run"}\n');
  writeFileSync(registryLog, '{"before":"the run"}\n');
  const image = (name: string) => `registry.test:5000/rocm/${name}:gfx1201`;
  const base = { 'rocm-base': `docker-image://${image('rocm-base')}` };
  const print = {
    group: {
      default: { targets: ['wheels', 'pytorch'] },
      wheels: { targets: ['a-wheel', 'b-wheel', 'c-wheel'] },
    },
    target: {
      'rocm-base': { context: '.', dockerfile: 'base.Dockerfile', tags: [image('rocm-base')] },
      pytorch: { context: '.', contexts: base, tags: [image('pytorch')] },
      'a-wheel': { context: '.', contexts: { ...base, pytorch: 'target:pytorch' }, tags: [image('a-wheel')] },
      'b-wheel': {
        context: '.',
        contexts: { ...base, pytorch: 'target:pytorch', 'a-wheel': 'target:a-wheel' },
        tags: [image('b-wheel')],
      },
      'c-wheel': {
        context: '.',
        contexts: { ...base, toolchain: 'docker-image://registry.test:5000/rocm/toolchain:1' },
        tags: [image('c-wheel')],
      },
    },
  };
  writeFileSync(path.join(dir, 'bake-print.json'), JSON.stringify(print));
  writeFileSync(
    path.join(dir, 'target-costs'),
    [
      'build pytorch 40',
      'build a-wheel 10',
      'build b-wheel 10',
      'build c-wheel 20',
      'build rocm-base 5',
      'cache pytorch 1000000',
      'cache a-wheel 100',
      'cache b-wheel 100',
      'cache c-wheel 100',
      'cache rocm-base 10',
      '',
    ].join('\n'),
  );
  const ssh = `{ host: store.test, user: builder }`;
  writeFileSync(
    path.join(dir, 'fleet.yaml'),
    [
      'arch: gfx1201',
      'targets: [wheels, pytorch]',
      'costs: target-costs',
      'bake: { print: bake-print.json }',
      'registry:',
      '  url: http://registry.test:5000',
      '  name: rocm',
      `  log: { ssh: ${ssh}, path: ${registryLog} }`,
      'sccache:',
      '  url: http://store.test:8080/sccache/',
      '  key_prefix: rocm/gfx1201',
      `  log: { ssh: ${ssh}, path: ${sccacheLog} }`,
      'nodes:',
      ...['forge', 'anvil', 'kiln'].map(
        (name) =>
          `  - { name: ${name}, builder: ${name}-b, link_mbps: ${name === 'kiln' ? 1 : 100}, node_exporter: http://${name}.test:9100/metrics }`,
      ),
      '',
    ].join('\n'),
  );
  return {
    dir,
    fleetPath: path.join(dir, 'fleet.yaml'),
    sccacheLog,
    registryLog,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

interface BakeCall {
  options: RunBakeOptions;
  startedAtMs: number;
  finishedAtMs: number;
}

export interface FakeWorld {
  effects: Partial<HarnessEffects>;
  bakes: BakeCall[];
  traceFetches: string[];
  /** The record each builder's last failed or cancelled bake left, by `<builder> error|canceled` (what `history ls --filter status=…` finds). */
  failedRecords: Map<string, { ref: string; createdMs: number }>;
  missingImages: Set<string>;
  running: () => number;
  maxRunning: () => number;
}

export interface FakeWorldOptions {
  sccacheLog: string;
  registryLog: string;
  durationMs?: Record<string, number>;
  failing?: Record<string, string>;
  probeProblems?: Partial<Record<'builder' | 'exporter' | 'registry' | 'sccache' | 'log', boolean>>;
  /** What `docker buildx version` and `buildx inspect` claim (default v0.23.0 and v0.27.1). */
  buildxVersion?: string;
  /** What `buildx inspect` prints for every builder (instead of the one made from buildkitVersion). */
  inspectOutput?: string;
  /** false: the builders answer `history ls` like BuildKit before v0.11 (Unimplemented). */
  historyApi?: boolean;
  buildkitVersion?: string;
  /** What preflight finds at a standalone buildx path (default: an executable file). */
  executables?: Record<string, ExecutableStatus>;
  /** Free space the run root reports (default 1 TB). */
  freeBytes?: number;
  missingImages?: string[];
  /** How far each node's clock (node_time_seconds) is off this machine's; default 0. */
  nodeClockOffsetsMs?: Record<string, number>;
  /** Called as a target's bake starts; the bake waits for what it returns (a fault test's async setup). */
  onBakeStart?: (target: string) => unknown;
}

const jaegerTrace = (target: string) =>
  JSON.stringify({
    data: [
      {
        traceID: 'aa',
        spans: [
          {
            traceID: 'aa',
            spanID: '01',
            operationName: `[${target} 1/1] RUN make`,
            references: [],
            startTime: 1_000_000,
            duration: 500_000,
            tags: [],
          },
        ],
        processes: {},
      },
    ],
  });

function createFakeBake(world: FakeWorld, options: FakeWorldOptions) {
  let running = 0;
  let maxRunning = 0;
  world.running = () => running;
  world.maxRunning = () => maxRunning;
  return async (bake: RunBakeOptions): Promise<CommandOutcome> => {
    const startedAtMs = Date.now();
    running += 1;
    maxRunning = Math.max(maxRunning, running);
    await options.onBakeStart?.(bake.target);
    try {
      // The harness's own status stream (runBake writes it, feeds each chunk to onStatusBytes, and reports a failed
      // write).
      const status = `{"vertexes":[{"digest":"sha256:1","name":"[${bake.target} 1/1] RUN make","started":"2026-01-01T00:00:00Z"}]}\n`;
      writeFileSync(bake.statusFile, status);
      bake.onStatusBytes?.(Buffer.from(status));
    } catch (error) {
      bake.onWriteError?.(bake.statusFile, error);
    }
    appendFileSync(
      options.sccacheLog,
      `{"target":"${bake.target}","prefix":"${bake.sccachePrefix ?? 'live'}"}\n`,
    );
    appendFileSync(options.registryLog, `{"push":"${bake.env.REGISTRY_NAME}/${bake.target}"}\n`);
    const cancelled = await delay(options.durationMs?.[bake.target] ?? 30, false, {
      signal: bake.signal,
    }).then(
      () => false,
      () => true,
    );
    running -= 1;
    world.bakes.push({ options: bake, startedAtMs, finishedAtMs: Date.now() });
    const command = `docker buildx bake ${bake.target}`;
    const ref = `${bake.builder}/${bake.builder}0/id${bake.target.replace(/-/g, '')}`;
    if (cancelled) {
      // BuildKit keeps a cancelled build's record (status Canceled) with its partial trace.
      world.failedRecords.set(`${bake.builder} canceled`, { ref, createdMs: startedAtMs });
      return { ok: false, exitCode: 130, command, errorTail: 'cancelled', stdout: '' };
    }
    const failure = options.failing?.[bake.target];
    if (failure) {
      world.failedRecords.set(`${bake.builder} error`, { ref, createdMs: startedAtMs });
      return { ok: false, exitCode: 1, command, errorTail: failure, stdout: '' };
    }
    try {
      writeFileSync(
        bake.metadataFile,
        JSON.stringify({
          [bake.target]: {
            'buildx.build.ref': ref,
            'image.name': `registry.test:5000/${bake.env.REGISTRY_NAME}/${bake.target}:gfx1201`,
            'containerimage.digest': 'sha256:abc',
          },
        }),
      );
    } catch (error) {
      // buildx fails the bake when it cannot write the metadata file.
      return { ok: false, exitCode: 1, command, errorTail: `ERROR: ${(error as Error).message}`, stdout: '' };
    }
    return { ok: true, exitCode: 0, command, errorTail: '', stdout: '' };
  };
}

function createFakeSampler(options: CreateSamplerOptions): Sampler {
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    for (const node of options.nodes) {
      options.onSample({
        version: SAMPLES_VERSION,
        node: node.name,
        tsMs: Date.now(),
        ok: true,
        cpuBusyPct: 50,
        memUsedPct: 20,
        diskReadBps: 0,
        diskWriteBps: 0,
        netRxBps: 0,
        netTxBps: 0,
        load1: 1,
      });
    }
  };
  return {
    start: () => {
      tick();
      timer = setInterval(tick, 10);
    },
    stop: () => {
      clearInterval(timer);
      return Promise.resolve();
    },
  };
}

function createFakeProbes(world: FakeWorld, options: FakeWorldOptions): PreflightProbes {
  const broken = options.probeProblems ?? {};
  const refuse = (what: string) => Promise.reject(new Error(`connect ECONNREFUSED (${what})`));
  return {
    executableStatus: (file) => Promise.resolve(options.executables?.[file] ?? 'ok'),
    buildxVersion: () =>
      Promise.resolve({
        ok: true,
        exitCode: 0,
        command: 'docker buildx version',
        errorTail: '',
        stdout: `github.com/docker/buildx ${options.buildxVersion ?? 'v0.23.0'} 0123abc\n`,
      }),
    inspectBuilder: (builder) =>
      Promise.resolve({
        ok: !broken.builder,
        exitCode: broken.builder ? 1 : 0,
        command: `docker buildx inspect --bootstrap --builder ${builder}`,
        errorTail: broken.builder ? 'ERROR: no builder found' : '',
        stdout:
          options.inspectOutput ??
          `Name: ${builder}\nNodes:\nName: ${builder}0\nBuildKit version: ${options.buildkitVersion ?? 'v0.27.1'}\n`,
      }),
    listHistory: (builder) =>
      Promise.resolve({
        ok: options.historyApi !== false,
        exitCode: options.historyApi === false ? 1 : 0,
        command: `docker buildx history ls --builder ${builder} --format json`,
        errorTail:
          options.historyApi === false
            ? 'ERROR: rpc error: code = Unimplemented desc = unknown method ListenBuildHistory for service moby.buildkit.v1.Control'
            : '',
        stdout: '',
      }),
    fetchStatus: (url) =>
      (broken.exporter && url.includes('9100')) || (broken.sccache && url.includes('8080'))
        ? refuse(url)
        : Promise.resolve(200),
    pingRegistry: () => (broken.registry ? refuse('registry') : Promise.resolve(200)),
    manifestExists: (repository, reference) =>
      Promise.resolve(!world.missingImages.has(`${repository}:${reference}`)),
    freeBytes: () => Promise.resolve(options.freeBytes ?? 1e12),
    checkRemoteLog: () =>
      broken.log
        ? Promise.reject(new Error('All configured authentication methods failed'))
        : Promise.resolve(),
  };
}

export function createFakeWorld(options: FakeWorldOptions): FakeWorld {
  const world: FakeWorld = {
    effects: {},
    bakes: [],
    traceFetches: [],
    failedRecords: new Map(),
    missingImages: new Set(options.missingImages),
    running: () => 0,
    maxRunning: () => 0,
  };
  world.effects = {
    bake: createFakeBake(world, options),
    findFailedBuild: ({ builder, sinceMs, status = 'error' }) => {
      const record = world.failedRecords.get(`${builder} ${status}`);
      return Promise.resolve(
        record !== undefined && record.createdMs >= sinceMs
          ? { ref: record.ref }
          : { reason: 'no failed build record since the bake started' },
      );
    },
    fetchTrace: ({ buildRef }) => {
      world.traceFetches.push(buildRef);
      const target = buildRef.split('/').at(-1) ?? '';
      return Promise.resolve({
        ok: true,
        exitCode: 0,
        command: 'docker buildx history trace',
        errorTail: '',
        stdout: jaegerTrace(target),
      });
    },
    // No record has attachments here: buildx's answer for a record without the asked one.
    fetchAttachment: ({ buildRef }) =>
      Promise.resolve({
        ok: false,
        exitCode: 1,
        command: 'docker buildx history inspect attachment',
        errorTail: `ERROR: no matching attachment found for ref "${buildRef.split('/').at(-1) ?? ''}"`,
        stdout: '',
      }),
    connect: () => Promise.resolve(localHost),
    // Each builder as real buildx v0.36.1 printed one (test/fixtures/buildkit-explain/capture-README.md).
    readBuilderIdentities: (nodes) =>
      readBuilderIdentities(nodes, {
        inspect: () => Promise.resolve(captured('capture-inspect.v0.32.2.txt')),
        du: () => Promise.resolve(captured('capture-du-verbose.v0.32.2.txt')),
      }),
    // node_time_seconds on the node's clock: this machine's, shifted by options.nodeClockOffsetsMs.
    fetchMetrics: (url) => {
      const node = new URL(url).hostname.replace(/\.test$/, '');
      const seconds = (Date.now() + (options.nodeClockOffsetsMs?.[node] ?? 0)) / 1000;
      return Promise.resolve(`# TYPE node_time_seconds gauge\nnode_time_seconds ${seconds}\n`);
    },
    createProbes: () => Promise.resolve(createFakeProbes(world, options)),
    createSampler: createFakeSampler,
    writeReport: (runDir) => {
      writeFileSync(path.join(runDir, 'report.md'), '# fake report\n');
      return Promise.resolve(undefined);
    },
    stderr: { write: () => true } as unknown as NodeJS.WritableStream,
  };
  return world;
}

/**
 * runHarness over a fleet fixture in the fake world, with the tests' 10 ms sample and log-poll intervals: the one
 * way the harness unit tests start a run. `options` override the run's options; `effects` (or a function of the fake
 * world, to wrap one of its effects) override the fake world's.
 */
export function startHarness({
  fixture,
  harness = 'warm',
  world = {},
  options = {},
  effects = {},
}: {
  fixture: ReturnType<typeof writeFleetFixture>;
  harness?: RunHarnessOptions['harness'];
  world?: Partial<FakeWorldOptions>;
  options?: Partial<Omit<RunHarnessOptions, 'effects'>>;
  effects?: Partial<HarnessEffects> | ((fake: FakeWorld) => Partial<HarnessEffects>);
}) {
  const fake = createFakeWorld({
    sccacheLog: fixture.sccacheLog,
    registryLog: fixture.registryLog,
    ...world,
  });
  const controller = new AbortController();
  const promise = runHarness({
    harness,
    fleetPath: fixture.fleetPath,
    flags: {},
    root: path.join(fixture.dir, 'runs'),
    env: {},
    sshAgent: undefined,
    dockerConfigDir: '/nonexistent/.docker',
    logLevel: 'warn',
    dispatch: 'fixed',
    coldNamespaceSuffix: '',
    signal: controller.signal,
    sampleIntervalMs: 10,
    logPollIntervalMs: 10,
    ...options,
    effects: { ...fake.effects, ...(typeof effects === 'function' ? effects(fake) : effects) },
  });
  return { fake, controller, promise };
}

/**
 * The saved plan of the fake fleet's four targets (pytorch and c-wheel on forge, a-wheel then b-wheel on anvil after
 * pytorch), written as DIR/saved-plan/plan.json; returns that dir (`--plan`).
 */
export async function writeSavedFleetPlan(dir: string): Promise<string> {
  const plan = createTestPlan(
    ['anvil', 'forge', 'kiln'],
    {
      pytorch: { node: 'forge', start: 0, finish: 40 },
      'c-wheel': { node: 'forge', start: 40, finish: 60 },
      'a-wheel': { node: 'anvil', start: 40, finish: 50, waitFor: ['pytorch'] },
      'b-wheel': { node: 'anvil', start: 50, finish: 60, waitFor: ['pytorch', 'a-wheel'] },
    },
    { forge: 2 },
  );
  const planDir = path.join(dir, 'saved-plan');
  await writePlanFile(planDir, plan);
  return planDir;
}

/** The harness's writeReport effect with the real report (explained, without the advisor): the model written. */
export const writeRealReport = (dir: string) =>
  writeRunReport({ runDir: openRunDir(dir) }).then((written) => written.model);
