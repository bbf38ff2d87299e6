import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  parseArtifacts,
  type RunFile,
  RunFileSchema,
  type StepUsageSample,
} from '../../../../src/artifacts/index.js';
import { PreflightError, UsageError } from '../../../../src/shared/errors.js';
import type { RunHarnessOptions } from '../../../../src/run/harness/run-harness.js';
import { acquireRunLock } from '../../../../src/run/harness/context/run-lock.js';
import {
  FLEET_TARGETS,
  startHarness,
  writeFleetFixture,
  type FakeWorldOptions,
} from '../../../helpers/harness-fixture.js';

let fixture: ReturnType<typeof writeFleetFixture>;
beforeEach(() => {
  fixture = writeFleetFixture();
});
afterEach(() => fixture.remove());

function start(
  harness: RunHarnessOptions['harness'],
  world: Partial<FakeWorldOptions> = {},
  { effects, ...options }: Partial<RunHarnessOptions> = {},
) {
  return startHarness({ fixture, harness, world, options, effects });
}

const readPlanTargets = (runDir: string) =>
  (
    JSON.parse(readFileSync(path.join(runDir, 'plan.json'), 'utf8')) as {
      targets: Record<string, { deps: string[] }>;
    }
  ).targets;
const readRun = (runDir: string): RunFile =>
  RunFileSchema.parse(JSON.parse(readFileSync(path.join(runDir, 'run.json'), 'utf8')));
const argsOf = (call: {
  options: { noCache: boolean; clearCacheTo: boolean; sccachePrefix?: string | undefined; push: boolean };
}) => call.options;

describe('runHarness (fakes for buildx, node_exporter, the registry and the log host)', () => {
  it('warm: runs every queue, keeps caches and the export, and leaves the complete run dir', async () => {
    const { fake, promise } = start('warm');
    const result = await promise;
    expect(result.exitCode).toBe(0);
    const run = readRun(result.runDir);
    expect(run).toMatchObject({
      harness: 'warm',
      mode: 'warm',
      namespace: 'rocm',
      sccachePrefix: 'rocm/gfx1201',
      status: 'completed',
      exitCode: 0,
    });
    expect(Object.values(run.targets).map((outcome) => outcome.status)).toEqual(
      FLEET_TARGETS.map(() => 'ok'),
    );
    // What each target pushes to, for the report's image/cache split: the print's tags (it has no cache-to).
    expect(run.uploadRefs).toEqual(
      Object.fromEntries(
        FLEET_TARGETS.map((target) => [
          target,
          { image: [`registry.test:5000/rocm/${target}:gfx1201`], cache: [] },
        ]),
      ),
    );
    for (const call of fake.bakes) {
      expect(argsOf(call)).toMatchObject({
        noCache: false,
        clearCacheTo: false,
        sccachePrefix: undefined,
        push: true,
      });
      expect(call.options.env).toEqual({
        REGISTRY_NAME: 'rocm',
        PUBLISHED_INPUTS: '1',
        GFX_ARCH: 'gfx1201',
        BUILDX_METADATA_PROVENANCE: 'max',
      });
    }
    const files = readdirSync(result.runDir);
    for (const target of FLEET_TARGETS) {
      expect(files).toContain(`trace-${target}.json`);
      expect(files).toContain(`status-${target}.jsonl`);
      expect(files).toContain(`meta-${target}.json`);
    }
    expect(files).toEqual(
      expect.arrayContaining([
        'plan.json',
        'run.json',
        'run.log',
        'samples.jsonl',
        'sccache.log',
        'zot.jsonl',
        'artifacts.txt',
        'report.md',
      ]),
    );
    const sampled = new Set(
      readFileSync(path.join(result.runDir, 'samples.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { node: string }).node),
    );
    expect([...sampled].sort()).toEqual(['anvil', 'forge', 'kiln']);
    const artifacts = parseArtifacts(readFileSync(path.join(result.runDir, 'artifacts.txt'), 'utf8'));
    expect(artifacts.map((artifact) => artifact.name)).toEqual([
      'rocm/a-wheel:gfx1201',
      'rocm/b-wheel:gfx1201',
      'rocm/c-wheel:gfx1201',
      'rocm/pytorch:gfx1201',
    ]);
  });

  it('records in run.json the size and SHA-256 of every file it wrote, as written, and the deps it ran under', async () => {
    const { promise } = start('warm');
    const result = await promise;
    const run = readRun(result.runDir);
    const files = run.files ?? {};
    const expected = [
      'plan.json',
      'samples.jsonl',
      'sccache.log',
      'zot.jsonl',
      'artifacts.txt',
      ...FLEET_TARGETS.flatMap((t) => [`trace-${t}.json`, `meta-${t}.json`]),
    ];
    expect(Object.keys(files)).toEqual(expect.arrayContaining(expected));
    for (const name of Object.keys(files)) {
      // Computed here from the bytes on disk: the harness hashed them on their way there.
      const bytes = readFileSync(path.join(result.runDir, name));
      expect({ name, ...files[name], traceIds: undefined }).toEqual({
        name,
        sizeBytes: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        traceIds: undefined,
      });
    }
    expect(run.deps).toEqual(
      Object.fromEntries(Object.entries(readPlanTargets(result.runDir)).map(([t, entry]) => [t, entry.deps])),
    );
  });

  it('reads every node and log host clock before and after the run, records them in run.json and warns above 1 s', async () => {
    const lines: string[] = [];
    const stderr = {
      write: (chunk: string) => (lines.push(String(chunk)), true),
    } as unknown as NodeJS.WritableStream;
    const { promise } = start('warm', { nodeClockOffsetsMs: { kiln: 3000 } }, { effects: { stderr } });
    const run = readRun((await promise).runDir);
    const nodes = (run.clocks ?? []).filter((r) => r.role === 'node');
    const logHosts = (run.clocks ?? []).filter((r) => r.role === 'log host');
    expect(nodes.map((r) => `${r.host} ${r.phase}`).sort()).toEqual(
      run.nodes.flatMap((n) => [`${n.name} after`, `${n.name} before`]).sort(),
    );
    expect(logHosts.map((r) => r.phase).sort()).toEqual(['after', 'before']);
    for (const reading of run.clocks ?? []) {
      expect(reading.error).toBeUndefined();
      const expected = reading.host === 'kiln' ? 3000 : 0;
      expect(Math.abs((reading.offsetMs ?? NaN) - expected)).toBeLessThanOrEqual(
        (reading.uncertaintyMs ?? 0) + 5,
      );
    }
    const warned = lines
      .join('')
      .split('\n')
      .filter((line) => line.includes('warning: clock of'));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(
      /clock of node kiln is 3\.\d\d s ahead of this workstation .*node_time_seconds; fix its time sync/,
    );
    expect(run.builderClocks?.map((c) => [c.node, c.source])).toContainEqual(['kiln', 'node clock']);
  });

  it('starts a target only after its in-run dependencies finished', async () => {
    const { fake, promise } = start('warm', { durationMs: { pytorch: 80 } });
    await promise;
    const at = (target: string) => fake.bakes.find((call) => call.options.target === target)!;
    expect(at('a-wheel').startedAtMs).toBeGreaterThanOrEqual(at('pytorch').finishedAtMs);
    expect(at('b-wheel').startedAtMs).toBeGreaterThanOrEqual(at('a-wheel').finishedAtMs);
  });

  it('slices each cache log to exactly the bytes written during the run', async () => {
    const { promise } = start('warm');
    const result = await promise;
    const sccache = readFileSync(path.join(result.runDir, 'sccache.log'), 'utf8');
    expect(sccache).not.toContain('before');
    expect(sccache.trim().split('\n')).toHaveLength(FLEET_TARGETS.length);
    const run = readRun(result.runDir);
    expect(
      run.logs?.map((slice) => [
        slice.kind,
        slice.file,
        slice.endOffset - slice.startOffset === slice.sizeBytes,
      ]),
    ).toEqual([
      ['sccache', 'sccache.log', true],
      ['registry', 'zot.jsonl', true],
    ]);
  });

  it('cold: --no-cache, cache export off, its own sccache prefix and namespace; bootstrap warm and pushed first', async () => {
    const { fake, promise } = start(
      'cold',
      { missingImages: ['rocm-coldrun-2/rocm-base:gfx1201'] },
      { coldNamespaceSuffix: '-2' },
    );
    const result = await promise;
    const run = readRun(result.runDir);
    expect(run.uploadRefs?.pytorch).toEqual({
      image: ['registry.test:5000/rocm-coldrun-2/pytorch:gfx1201'],
      cache: [],
    });
    expect(run).toMatchObject({
      harness: 'cold',
      mode: 'cold',
      namespace: 'rocm-coldrun-2',
      bootstrapped: ['rocm-base'],
      status: 'completed',
    });
    expect(run.sccachePrefix).toBe(`rocm/gfx1201-coldrun-${run.stamp}`);
    const [first, ...measured] = fake.bakes.sort((a, b) => a.startedAtMs - b.startedAtMs);
    expect(first?.options.target).toBe('rocm-base');
    expect(argsOf(first!)).toMatchObject({
      noCache: false,
      clearCacheTo: false,
      push: true,
      sccachePrefix: run.sccachePrefix,
    });
    expect(first?.options.metadataFile).toBe(path.join(result.runDir, 'bootstrap', 'meta-rocm-base.json'));
    // When the bootstrap build ran is kept, and the measured run began after it.
    expect(run.bootstrap?.map((build) => build.target)).toEqual(['rocm-base']);
    // Read just before the bake starts (the fake records its own start a moment later).
    expect(run.bootstrap![0]!.startedAtMs).toBeLessThanOrEqual(first!.startedAtMs);
    expect(run.bootstrap![0]!.startedAtMs).toBeGreaterThanOrEqual(run.startedAtMs);
    expect(run.bootstrap![0]!.finishedAtMs).toBeGreaterThan(run.bootstrap![0]!.startedAtMs);
    expect(run.measuredStartedAtMs).toBeGreaterThanOrEqual(run.bootstrap![0]!.finishedAtMs);
    for (const call of measured) {
      expect(argsOf(call)).toMatchObject({
        noCache: true,
        clearCacheTo: true,
        push: true,
        sccachePrefix: run.sccachePrefix,
      });
      expect(call.options.env.REGISTRY_NAME).toBe('rocm-coldrun-2');
    }
    expect(Object.keys(run.targets)).not.toContain('rocm-base');
    expect(readFileSync(path.join(result.runDir, 'zot.jsonl'), 'utf8')).not.toMatch(/"push":"rocm\//);
  });

  it('a failed target skips its dependents, other queues go on, exit 1 with the reason in run.json', async () => {
    const { fake, promise } = start('warm', {
      failing: {
        'a-wheel':
          'ERROR: failed to solve: process "/bin/sh -c make" did not complete successfully: exit code: 2',
      },
    });
    const result = await promise;
    expect(result.exitCode).toBe(1);
    const run = readRun(result.runDir);
    expect(run.status).toBe('failed');
    expect(run.targets['a-wheel']).toMatchObject({
      status: 'failed',
      exitCode: 1,
      error: expect.stringContaining('exit code: 2') as unknown,
    });
    expect(run.targets['b-wheel']).toMatchObject({ status: 'skipped', reason: 'dependency a-wheel failed' });
    expect(run.targets['c-wheel']?.status).toBe('ok');
    // Its build record is found in the builder's history (a failed bake writes no metadata), and its trace saved.
    const failed = run.targets['a-wheel'];
    const failedRef = failed?.status === 'failed' ? failed.buildRef : undefined;
    expect(failedRef).toMatch(/\/ida?wheel$/);
    expect(fake.traceFetches).toContain(failedRef);
    expect(existsSync(path.join(result.runDir, 'trace-a-wheel.json'))).toBe(true);
  });

  it('an interrupt stops the step-usage sampler too; what it sampled is in step-usage.jsonl and run.json', async () => {
    // forge gets an ssh link, so the run samples its step cgroups (docs/step-usage.md); the sampler is a fake effect.
    const fleet = readFileSync(fixture.fleetPath, 'utf8');
    writeFileSync(
      fixture.fleetPath,
      fleet.replace(
        '  - { name: forge,',
        '  - { name: forge, ssh: { host: forge.test }, step_cgroups: p/buildkit,',
      ),
    );
    const calls: string[] = [];
    const line = (tsMs: number): StepUsageSample => ({
      version: 1,
      node: 'forge',
      tsMs,
      ok: true,
      cgroup: 'v1',
      present: true,
      groups: [],
    });
    const { controller, promise } = start(
      'warm',
      {
        durationMs: { pytorch: 5_000 },
        onBakeStart: (target) => target === 'pytorch' && setTimeout(() => controller.abort('SIGINT'), 50),
      },
      {
        effects: {
          createStepUsageSampler: (options) => ({
            start: () => {
              calls.push(`start ${options.nodes.map((n) => `${n.name}:${n.stepCgroups}`).join(',')}`);
              options.onSample(line(1));
              options.onSample(line(2));
            },
            stop: () => {
              calls.push(controller.signal.aborted ? 'stop after the interrupt' : 'stop before it');
              return Promise.resolve();
            },
          }),
        },
      },
    );
    const result = await promise;
    expect(result.exitCode).toBe(130);
    expect(calls).toEqual(['start forge:p/buildkit', 'stop after the interrupt']);
    const text = readFileSync(path.join(result.runDir, 'step-usage.jsonl'), 'utf8');
    expect(
      text
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { tsMs: number }).tsMs),
    ).toEqual([1, 2]);
    expect(readRun(result.runDir).files?.['step-usage.jsonl']).toEqual({
      sizeBytes: Buffer.byteLength(text),
      sha256: createHash('sha256').update(text).digest('hex'),
    });
  });

  it('an interrupt stops launching, cancels running builds and still finalizes everything (exit 130)', async () => {
    const { controller, fake, promise } = start('warm', {
      durationMs: { pytorch: 5_000 },
      onBakeStart: (target) => target === 'pytorch' && setTimeout(() => controller.abort('SIGINT'), 50),
    });
    const result = await promise;
    expect(result.exitCode).toBe(130);
    const run = readRun(result.runDir);
    expect(run).toMatchObject({ status: 'interrupted', exitCode: 130, interruptedBy: 'SIGINT' });
    // Cancelled, not failed; its builder kept the record, so its partial trace is fetched and kept.
    expect(run.targets.pytorch).toMatchObject({
      status: 'interrupted',
      error: expect.stringMatching(/^cancelled mid-build/) as unknown,
      buildRef: 'anvil-b/anvil-b0/idpytorch',
    });
    expect(fake.traceFetches).toContain('anvil-b/anvil-b0/idpytorch');
    expect(run.targets['a-wheel']).toMatchObject({ status: 'skipped', reason: 'interrupted' });
    expect(run.finishedAtMs).not.toBeNull();
    const files = readdirSync(result.runDir);
    expect(files).toEqual(
      expect.arrayContaining([
        'samples.jsonl',
        'sccache.log',
        'zot.jsonl',
        'artifacts.txt',
        'report.md',
        'plan.json',
      ]),
    );
  });

  it('preflight lists every problem at once, starts nothing and leaves no run dir', async () => {
    const { fake, promise } = start('warm', { probeProblems: { registry: true, exporter: true, log: true } });
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(PreflightError);
    const problems = (error as PreflightError).problems;
    expect(problems.filter((problem) => problem.startsWith('node_exporter of'))).toHaveLength(3);
    expect(
      problems.some((problem) =>
        problem.startsWith('registry http://registry.test:5000/v2/ does not answer'),
      ),
    ).toBe(true);
    expect(problems.filter((problem) => problem.includes('authentication methods failed'))).toHaveLength(2);
    expect(fake.bakes).toEqual([]);
    expect(readdirSync(path.join(fixture.dir, 'runs')).filter((name) => !name.startsWith('.'))).toEqual([]);
    // The lock was released: the next run goes ahead.
    const again = await start('warm').promise;
    expect(again.exitCode).toBe(0);
  });

  it('preflight refuses a buildx or BuildKit too old for what the run uses, naming the version, minimum and fix', async () => {
    const { fake, promise } = start('warm', { buildxVersion: 'v0.21.2', buildkitVersion: 'v0.10.6' });
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(PreflightError);
    const problems = (error as PreflightError).problems;
    expect(problems).toContain(
      'buildx 0.21.2 is older than 0.23.0, the first with `history ls --filter` (the record of a failed target). Fix: upgrade buildx on this workstation to ≥ 0.23.0',
    );
    expect(
      problems.filter((problem) => problem.includes('runs BuildKit v0.10.6 older than 0.11.0')),
    ).toHaveLength(3);
    expect(problems.filter((problem) => problem.includes('older than 0.15.0'))).toEqual([]);
    expect(fake.bakes).toEqual([]);
  });

  it('preflight asks a builder that prints no BuildKit version for its build history, and refuses one without that API (real BuildKit v0.10.6)', async () => {
    const real = path.resolve(import.meta.dirname, '../../../fixtures/buildkit-real');
    const inspectOutput = readFileSync(path.join(real, 'buildx-inspect-v0.10.6.txt'), 'utf8');
    expect(inspectOutput).not.toMatch(/BuildKit version|Buildkit:/);
    const refused = start('warm', {
      buildxVersion: 'v0.36.1',
      inspectOutput,
      historyApi: false,
    });
    const error = await refused.promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(PreflightError);
    const said = readFileSync(path.join(real, 'history-ls-v0.10.6.stderr'), 'utf8').trim();
    const problems = (error as PreflightError).problems.filter((problem) => problem.includes('history ls'));
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) {
      expect(problem).toContain(said);
      expect(problem).toContain('no build-history API: older than 0.11.0');
      expect(problem).toMatch(/Fix: recreate the builder with a newer moby\/buildkit image/);
    }
    expect(refused.fake.bakes).toEqual([]);
    // The same builder answering `history ls`: a warning that the version is not checked, and the run goes ahead.
    const answered = start('warm', { buildxVersion: 'v0.36.1', inspectOutput });
    expect((await answered.promise).exitCode).toBe(0);
  });

  it('preflight refuses a run root without room for the run dir, naming the estimate and the free space', async () => {
    const { fake, promise } = start('warm', { freeBytes: 1_000_000 });
    await expect(promise).rejects.toThrow(
      /run root .* has 1 MB free; this run needs about \d+ MB \(log slices/,
    );
    expect(fake.bakes).toEqual([]);
  });

  it('an image the registry lacks and no target builds is a preflight problem', async () => {
    const { fake, promise } = start('warm', { missingImages: ['rocm/toolchain:1'] });
    await expect(promise).rejects.toThrow(
      'the registry lacks registry.test:5000/rocm/toolchain:1 (needed by c-wheel) and no bake target builds it. Fix: push it, or add a bake target that tags it',
    );
    expect(fake.bakes).toEqual([]);
  });

  it('a target: link outside the run resolves from its published tag, bootstrapped when missing', async () => {
    const { fake, promise } = start(
      'warm',
      { missingImages: ['rocm/pytorch:gfx1201'] },
      { flags: { targets: ['a-wheel'] } },
    );
    const result = await promise;
    const run = readRun(result.runDir);
    expect(run.bootstrapped).toEqual(['pytorch']);
    expect(Object.keys(run.targets)).toEqual(['a-wheel']);
    expect(fake.bakes.map((call) => call.options.target)).toEqual(['pytorch', 'a-wheel']);
  });

  it('refuses a second run into a namespace while one is live', async () => {
    const lock = await acquireRunLock({
      root: path.join(fixture.dir, 'runs'),
      namespace: 'rocm',
      stamp: 'other',
      nowMs: 0,
    });
    const { fake, promise } = start('warm');
    await expect(promise).rejects.toThrow(UsageError);
    await expect(promise).rejects.toThrow(/a run into namespace rocm is live: run other/);
    expect(fake.bakes).toEqual([]);
    await lock.release();
  });

  it('bench runs one target at a time with every cache isolated: --no-cache, its own sccache prefix and namespace, no cache export', async () => {
    const { fake, promise } = start('bench');
    const result = await promise;
    const run = readRun(result.runDir);
    expect(run).toMatchObject({
      harness: 'bench',
      mode: 'cold',
      namespace: 'rocm-bench',
      status: 'completed',
    });
    expect(run.sccachePrefix).toBe(`rocm/gfx1201-bench-${run.stamp}`);
    expect(fake.maxRunning()).toBe(1);
    expect(fake.bakes.every((call) => call.options.sccachePrefix === run.sccachePrefix)).toBe(true);
    expect(fake.bakes.every((call) => call.options.noCache && call.options.clearCacheTo)).toBe(true);
  });

  it('with a standalone buildx (PERF_BUILDX), every bake, failed-record lookup and trace fetch runs it', async () => {
    const buildx = '/opt/bx/buildx';
    const lookups: (string | undefined)[] = [];
    const traces: (string | undefined)[] = [];
    // The fake world's own lookups, wrapped to record which buildx each call was given (called once it started).
    const started: ReturnType<typeof start> = start(
      'warm',
      { failing: { 'a-wheel': 'ERROR: failed to solve' } },
      {
        env: { PERF_BUILDX: buildx },
        effects: {
          findFailedBuild: (query) => (
            lookups.push(query.buildx),
            started.fake.effects.findFailedBuild!(query)
          ),
          fetchTrace: (options) => (traces.push(options.buildx), started.fake.effects.fetchTrace!(options)),
        },
      },
    );
    const { fake } = started;
    expect((await started.promise).exitCode).toBe(1);
    expect(fake.bakes).toHaveLength(FLEET_TARGETS.length - 1);
    expect(fake.bakes.map((call) => call.options.buildx)).toEqual(fake.bakes.map(() => buildx));
    expect(lookups).toEqual([buildx]);
    // The failed target's trace too (its record was found), and every finished one's.
    expect(traces).toHaveLength(FLEET_TARGETS.length - 1);
    expect(new Set(traces)).toEqual(new Set([buildx]));
  });

  it('preflight: a standalone buildx that does not exist is one problem naming the setting, the path and the fix', async () => {
    const fleetText = readFileSync(fixture.fleetPath, 'utf8');
    writeFileSync(
      fixture.fleetPath,
      fleetText.replace(
        'bake: { print: bake-print.json }',
        'bake: { print: bake-print.json, buildx: bin/buildx }',
      ),
    );
    const missing = path.join(fixture.dir, 'bin', 'buildx');
    const { fake, promise } = start('warm', { executables: { [missing]: 'missing' } });
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(PreflightError);
    expect((error as PreflightError).problems).toEqual([
      `buildx binary ${missing} (bake.buildx in ${fixture.fleetPath}) does not exist. Fix: install a standalone buildx release there (chmod +x), or give the binary's full path (e.g. \`command -v buildx\`); or correct bake.buildx in fleet.yaml, or remove it to run \`docker buildx\``,
    ]);
    expect(fake.bakes).toEqual([]);
  });

  it('gets the bake graph from effects.runBakePrint when fleet.yaml names a bake file', async () => {
    const fleetText = readFileSync(fixture.fleetPath, 'utf8');
    writeFileSync(fixture.fleetPath, fleetText.replace('print: bake-print.json', 'file: docker-bake.hcl'));
    const printed: string[] = [];
    const runBakePrint = ({ bakeFile }: { bakeFile: string }) => {
      printed.push(bakeFile);
      return Promise.resolve(readFileSync(path.join(fixture.dir, 'bake-print.json'), 'utf8'));
    };
    const { fake, promise } = start('warm', {}, { effects: { runBakePrint } });
    expect((await promise).exitCode).toBe(0);
    expect(printed).toEqual([path.join(fixture.dir, 'docker-bake.hcl')]);
    expect(fake.bakes).toHaveLength(FLEET_TARGETS.length);
  });
});
