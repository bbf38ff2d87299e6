import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { cp, copyFile, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataFile, RunFile } from '../../src/artifacts/index.js';
import { createTempDir, type TempDir } from '../helpers/daemons/index.js';
import { assertCliBuilt, repoRoot, runBuiltCli } from '../helpers/run-built-cli.js';
import { traceFigures } from '../helpers/sample-run-facts.js';

// Issue 35 items 2–6 on the shipped sample runs (fixtures/runs/, recorded on the fleet in a box), each case a copy
// of gfx1201-warm damaged the way the issue describes, read by the built CLI. The truth is the intact run and the
// files' own bytes: digests here are computed with node:crypto in test code, never by the product. The sample's
// run.json holds the digests its harness recorded (`files`, `deps`); a copy has them taken out (an older run's
// run.json), or with `sign` gets them again, computed here.

const fixtures = path.join(repoRoot, 'fixtures/runs');
const warm = path.join(fixtures, 'gfx1201-warm');
const coldTrace = path.join(fixtures, 'gfx1201-cold/trace-pytorch.json');
const REPORT_OUTPUTS = ['data.json', 'report.md', 'index.html', 'targets.svg', 'timeline.svg'];
let temp: TempDir;

const readTrace = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as JaegerTrace;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * Where the cold run's pytorch trace starts on the workstation's clock, as the check dates it: its first span of
 * buildkitd (Jaeger µs, the builder's clock; a span whose process is `buildx` is on the workstation's clock and is
 * checked apart) less strix's offset the warm run measured (run.json builderClocks).
 */
function coldTraceStartIso(): string {
  const run = JSON.parse(readFileSync(path.join(warm, 'run.json'), 'utf8')) as RunFile;
  const node = run.targets.pytorch!.node;
  const offsetMs = run.builderClocks?.find((clock) => clock.node === node)?.offsetMs ?? 0;
  const startUs = Math.min(
    ...readTrace(coldTrace).data.flatMap((t) =>
      t.spans
        .filter((span) => t.processes?.[span.processID ?? '']?.serviceName !== 'buildx')
        .map((span) => span.startTime),
    ),
  );
  return new Date(startUs / 1000 - offsetMs).toISOString();
}
const coldTraceFrom = new RegExp(
  `^WARNING: trace-pytorch\\.json: its spans run from ${escapeRegExp(coldTraceStartIso())} .* outside pytorch's build on strix`,
);
const warmPytorchSpans = readTrace(path.join(warm, 'trace-pytorch.json')).data.flatMap((t) => t.spans).length;

interface JaegerTrace {
  data: {
    traceID: string;
    spans: { startTime: number; duration: number; processID?: string }[];
    processes?: Record<string, { serviceName: string }>;
  }[];
}

/** A copy of the warm sample without its report; `sign` records digests as a run of this rocm-perf does. */
async function copyWarm(name: string, { sign = false } = {}): Promise<string> {
  const dir = path.join(temp.path, name);
  await cp(warm, dir, { recursive: true });
  for (const file of REPORT_OUTPUTS) await rm(path.join(dir, file), { force: true });
  const run = JSON.parse(await readFile(path.join(dir, 'run.json'), 'utf8')) as RunFile;
  delete run.files;
  delete run.deps;
  await writeFile(path.join(dir, 'run.json'), JSON.stringify(run, null, 2));
  if (sign) await signRun(dir);
  return dir;
}

/** run.json `files` (size + sha256 of each file) and `deps`, computed here from the bytes on disk. */
async function signRun(dir: string): Promise<void> {
  const run = JSON.parse(await readFile(path.join(dir, 'run.json'), 'utf8')) as RunFile;
  const plan = JSON.parse(await readFile(path.join(dir, 'plan.json'), 'utf8')) as {
    targets: Record<string, { deps: string[] }>;
  };
  const files: NonNullable<RunFile['files']> = {};
  for (const name of (await readdir(dir)).sort()) {
    if (name === 'run.json' || name === 'run.log') continue;
    const bytes = await readFile(path.join(dir, name));
    files[name] = { sizeBytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  }
  run.files = files;
  run.deps = Object.fromEntries(Object.entries(plan.targets).map(([t, entry]) => [t, entry.deps]));
  await writeFile(path.join(dir, 'run.json'), JSON.stringify(run, null, 2));
}

async function editTrace(dir: string, edit: (span: { startTime: number; duration: number }) => void) {
  const file = path.join(dir, 'trace-pytorch.json');
  const trace = JSON.parse(await readFile(file, 'utf8')) as JaegerTrace;
  for (const span of trace.data.flatMap((t) => t.spans)) edit(span);
  await writeFile(file, JSON.stringify(trace));
}

async function editSampleLine(dir: string, lineIndex: number, change: Record<string, unknown>) {
  const file = path.join(dir, 'samples.jsonl');
  const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
  lines[lineIndex] = JSON.stringify({ ...(JSON.parse(lines[lineIndex] ?? '{}') as object), ...change });
  await writeFile(file, `${lines.join('\n')}\n`);
}

/** Changes one byte of zot.jsonl in place: the size stays what run.json recorded. */
async function editZotInPlace(dir: string, from: RegExp, to: (match: string) => string) {
  const file = path.join(dir, 'zot.jsonl');
  const text = await readFile(file, 'utf8');
  const edited = text.replace(from, to);
  expect(edited).not.toBe(text);
  expect(Buffer.byteLength(edited)).toBe(Buffer.byteLength(text));
  await writeFile(file, edited);
}

async function report(dir: string) {
  const result = await runBuiltCli(['report', dir], { root: temp.path });
  const model = JSON.parse(await readFile(path.join(dir, 'data.json'), 'utf8')) as DataFile;
  const pytorch = model.summary.targets.find((t) => t.target === 'pytorch');
  return {
    result,
    model,
    pytorch,
    warnings: result.stderr.split('\n').filter((l) => l.startsWith('WARNING:')),
  };
}

let intact: DataFile;

beforeAll(async () => {
  await assertCliBuilt();
  temp = createTempDir('run-checks-e2e');
  const { result, model } = await report(await copyWarm('intact', { sign: true }));
  expect(result.exitCode).toBe(0);
  intact = model;
}, 60_000);

afterAll(() => temp?.remove());

describe('a trace must be this run’s (item 2)', () => {
  it.each([
    [
      'the cold run’s trace dropped in',
      async (dir: string) => copyFile(coldTrace, path.join(dir, 'trace-pytorch.json')),
      coldTraceFrom,
    ],
    [
      'spans with negative durations',
      (dir: string) => editTrace(dir, (span) => void (span.duration = -Math.abs(span.duration) - 1)),
      new RegExp(`^WARNING: trace-pytorch\\.json: ${warmPytorchSpans} spans end before it starts`),
    ],
    [
      'spans dated 1970',
      (dir: string) => editTrace(dir, (span) => void (span.startTime -= 1_796_537_000_000_000)),
      /^WARNING: trace-pytorch\.json: its spans run from 1970-01-01/,
    ],
    [
      'spans dated 2099',
      (dir: string) => editTrace(dir, (span) => void (span.startTime += 2_270_000_000_000_000)),
      /^WARNING: trace-pytorch\.json: its spans run from 2098-/,
    ],
  ])('%s: the trace is left out and blamed, the other figures stand', async (name, damage, first) => {
    const dir = await copyWarm(name.replace(/\W+/g, '-'));
    await damage(dir);
    const { result, model, pytorch, warnings } = await report(dir);
    expect(result.exitCode).toBe(1);
    expect(warnings[0]).toMatch(first);
    // Only the file at fault is named (the foreign trace used to be blamed on samples.jsonl).
    expect(warnings.every((line) => line.startsWith('WARNING: trace-pytorch.json:'))).toBe(true);
    expect(pytorch).toMatchObject({
      buildSeconds: null,
      totalSeconds: null,
      partial: ['trace-pytorch.json'],
    });
    expect(model.summary.partial).toEqual(['trace-pytorch.json']);
    expect(model.summary.makespanSeconds).toBe(intact.summary.makespanSeconds);
    const others = (m: DataFile) =>
      m.summary.targets.filter((t) => t.target !== 'pytorch').map((t) => [t.target, t.buildSeconds]);
    expect(others(model)).toEqual(others(intact));
  });

  it('a trace ID other than the one run.json recorded is another build’s trace', async () => {
    const dir = await copyWarm('foreign-trace-id', { sign: true });
    const run = JSON.parse(await readFile(path.join(dir, 'run.json'), 'utf8')) as RunFile;
    run.files!['trace-pytorch.json']!.traceIds = ['c1103609257796867768c23c7d5372a9'];
    await writeFile(path.join(dir, 'run.json'), JSON.stringify(run));
    await copyFile(coldTrace, path.join(dir, 'trace-pytorch.json'));
    const { warnings } = await report(dir);
    const [coldTraceId] = readTrace(coldTrace).data.map((trace) => trace.traceID);
    expect(warnings).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^WARNING: trace-pytorch\\.json: trace ID ${coldTraceId}, but run\\.json recorded c1103609257796867768c23c7d5372a9`,
        ),
      ),
    );
  });
});

describe('plan.json must be the plan the run used (item 4)', () => {
  it('without plan.json, a run that recorded its deps keeps its measured critical path', async () => {
    const dir = await copyWarm('no-plan', { sign: true });
    await rm(path.join(dir, 'plan.json'));
    const { result, model, warnings } = await report(dir);
    expect(result.exitCode).toBe(1);
    expect(warnings).toEqual([
      'WARNING: plan.json: absent, but run.json recorded the plan this run used; planned figures are left out (measured figures never read plan.json)',
    ]);
    expect(model.summary.criticalPath.measured).toEqual(intact.summary.criticalPath.measured);
    expect(model.summary.plannedMakespanSeconds).toBeNull();
  });

  it('a plan.json of other targets is not used, and says so (an older run without digests)', async () => {
    const dir = await copyWarm('other-plan');
    const file = path.join(dir, 'plan.json');
    const plan = JSON.parse(await readFile(file, 'utf8')) as { targets: Record<string, unknown> };
    plan.targets = Object.fromEntries(Object.entries(plan.targets).map(([t, v]) => [`other-${t}`, v]));
    await writeFile(file, JSON.stringify(plan));
    const { result, model, warnings } = await report(dir);
    expect(result.exitCode).toBe(1);
    expect(warnings[0]).toMatch(/^WARNING: plan\.json: not the plan this run used \(it lacks aiter-wheel, /);
    expect(model.summary.plannedMakespanSeconds).toBeNull();
    expect(model.run.hasPlanFile).toBe(false);
  });

  it('a plan.json replaced after the run fails its digest', async () => {
    const dir = await copyWarm('plan-swapped', { sign: true });
    await copyFile(path.join(fixtures, 'gfx1201-cold/plan.json'), path.join(dir, 'plan.json'));
    const { warnings, model } = await report(dir);
    const bytes = (file: string) => statSync(file).size.toLocaleString('en-US');
    expect(warnings[0]).toMatch(
      new RegExp(
        `^WARNING: plan\\.json: sha256 [0-9a-f]{12}… \\(${bytes(path.join(fixtures, 'gfx1201-cold/plan.json'))} bytes\\) is not the ${bytes(path.join(warm, 'plan.json'))}-byte file`,
      ),
    );
    expect(model.summary.criticalPath.planned).toEqual([]);
    expect(model.summary.criticalPath.measured).toEqual(intact.summary.criticalPath.measured);
  });
});

describe('samples within physical ranges (item 5) and one bad line costs one line (item 7)', () => {
  it.each([
    ['CPU −850 %', { cpuBusyPct: -850 }, 'cpuBusyPct -850 is outside 0..100 %'],
    ['CPU 1,000,000 %', { cpuBusyPct: 1_000_000 }, 'cpuBusyPct 1000000 is outside 0..100 %'],
    ['memory 4,000 %', { memUsedPct: 4000 }, 'memUsedPct 4000 is outside 0..100 %'],
    ['a line of samples version 2', { version: 2 }, 'samples version 2 in a version-1 file'],
  ])('%s: the line is rejected by number, the rest read', async (name, change, reason) => {
    const dir = await copyWarm(name.replace(/\W+/g, '-'));
    await editSampleLine(dir, 40, change);
    const { result, model, warnings } = await report(dir);
    expect(result.exitCode).toBe(1);
    expect(warnings[0]).toContain(`WARNING: samples.jsonl: 1 line rejected (line 41: ${reason}`);
    for (const node of model.summary.nodes) {
      expect(node.partial).toContain('samples.jsonl');
      for (const pct of [node.cpuPeakPct, node.cpuMeanPct, node.memPeakPct]) {
        if (pct === null) continue;
        expect(pct).toBeGreaterThanOrEqual(0);
        expect(pct).toBeLessThanOrEqual(100);
      }
    }
    expect(model.summary.streams['samples.jsonl']).toMatchObject({ rejected: 1 });
  });
});

describe('digests catch a size-preserving edit (item 6)', () => {
  it.each([
    [
      'one digit of a blob size',
      /"Content-Length":\["([1-9])(\d{3,})"\]/,
      (m: string) => m.replace(/\["(\d)/, (_x, d: string) => `["${d === '1' ? '2' : '1'}`),
    ],
    ['a 200 changed to a 404', /"statusCode":200/, () => '"statusCode":404'],
  ])('%s in zot.jsonl: named, registry marked partial', async (name, from, to) => {
    const dir = await copyWarm(name.replace(/\W+/g, '-'), { sign: true });
    await editZotInPlace(dir, from, to);
    const { result, model, warnings } = await report(dir);
    expect(result.exitCode).toBe(1);
    const zotBytes = statSync(path.join(warm, 'zot.jsonl')).size.toLocaleString('en-US');
    expect(warnings).toEqual([
      expect.stringMatching(
        new RegExp(
          `^WARNING: zot\\.jsonl: sha256 [0-9a-f]{12}… \\(same size\\) is not the ${zotBytes}-byte file run\\.json recorded`,
        ),
      ),
    ]);
    expect(model.summary.registry.partial).toEqual(['zot.jsonl']);
  });

  it('an older run without digests says its files cannot be verified byte for byte', async () => {
    const { model } = await report(await copyWarm('unsigned'));
    expect(model.summary.warnings).toContainEqual({
      level: 'note',
      stream: 'run.json',
      message: expect.stringMatching(/^run\.json records no digests/) as unknown,
    });
  });
});

describe('one gate for every reader (item 3)', () => {
  let dated1970: string;
  beforeAll(async () => {
    dated1970 = await copyWarm('costs-1970');
    await editTrace(dated1970, (span) => void (span.startTime -= 1_796_537_000_000_000));
  });

  it('costs --from refuses a flagged run, naming the file, exit 2, and writes nothing', async () => {
    const out = path.join(temp.path, 'costs-refused');
    const result = await runBuiltCli(
      [
        'costs',
        '--fleet',
        path.join(repoRoot, 'fleet.yaml'),
        '--allow-other-fleet',
        '--allow-other-bake',
        '--from',
        dated1970,
        '--out',
        out,
      ],
      { root: temp.path },
    );
    expect(result.exitCode).toBe(2);
    const [error, hint] = result.stderr.split('\n').filter((l) => /^(error|hint):/.test(l));
    expect(error).toMatch(
      /^error: --from .*costs-1970: trace-pytorch\.json failed the run's checks \(trace-pytorch\.json: its spans run from 1970/,
    );
    expect(hint).toMatch(/--allow-partial/);
    await expect(readFile(out)).rejects.toThrow(/ENOENT/);
  });

  it('costs --from --allow-partial writes the other targets and no figure from the flagged trace', async () => {
    const result = await runBuiltCli(
      [
        'costs',
        '--fleet',
        path.join(repoRoot, 'fleet.yaml'),
        '--allow-other-fleet',
        '--allow-other-bake',
        '--from',
        dated1970,
        '--allow-partial',
        '--dry-run',
      ],
      { root: temp.path },
    );
    expect(result.exitCode).toBe(0);
    const intactCosts = await runBuiltCli(
      [
        'costs',
        '--fleet',
        path.join(repoRoot, 'fleet.yaml'),
        '--allow-other-fleet',
        '--allow-other-bake',
        '--from',
        path.join(temp.path, 'intact'),
        '--dry-run',
      ],
      { root: temp.path },
    );
    const warmBuild = (text: string) => text.split('\n').filter((l) => l.startsWith('warm-build '));
    expect(warmBuild(result.stdout)).toEqual(
      warmBuild(intactCosts.stdout).filter((l) => !l.startsWith('warm-build pytorch ')),
    );
    // pytorch's steps in its own trace (sample-run-facts.ts), as the costs file writes seconds.
    expect(warmBuild(intactCosts.stdout)).toContain(
      `warm-build pytorch ${traceFigures(warm, 'pytorch').buildSeconds.toFixed(2)}`,
    );
  });

  it('plan --from-run refuses a plan.json that is not the run’s', async () => {
    const dir = await copyWarm('replay-other-plan', { sign: true });
    await copyFile(path.join(fixtures, 'gfx1201-cold/plan.json'), path.join(dir, 'plan.json'));
    const result = await runBuiltCli(
      ['plan', '--fleet', path.join(repoRoot, 'fleet.yaml'), '--from-run', dir],
      {
        root: temp.path,
      },
    );
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^error: --from-run .*replay-other-plan: plan\.json: sha256 /m);
  });

  it('diff rebuilds a data.json written before the checks: a same-size edit of samples.jsonl is seen', async () => {
    const dir = await copyWarm('diff-stale');
    // A data.json as a version before the checks wrote it: no run.runChecks (the shipped one is re-rendered now).
    const stored = JSON.parse(await readFile(path.join(warm, 'data.json'), 'utf8')) as {
      run: Record<string, unknown>;
    };
    delete stored.run.runChecks;
    await writeFile(path.join(dir, 'data.json'), JSON.stringify(stored));
    const file = path.join(dir, 'samples.jsonl');
    const text = await readFile(file, 'utf8');
    // One memory reading made 4,000 %, the file's size unchanged: the stored data.json's sizes still match.
    const edited = text.replace(
      /"memUsedPct":(\d\.\d{6})/,
      (_m, was: string) => `"memUsedPct":4000.${was.slice(5)}`,
    );
    expect(Buffer.byteLength(edited)).toBe(Buffer.byteLength(text));
    expect(edited).not.toBe(text);
    await writeFile(file, edited);
    const result = await runBuiltCli(['diff', '--force', path.join(temp.path, 'intact'), dir, '--json'], {
      root: temp.path,
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(
      /^WARNING: RUN_B .*: samples\.jsonl: 1 line rejected \(line \d+: memUsedPct 4000\.\d+ is outside 0\.\.100 %/m,
    );
  });

  it('diff names a foreign trace, not samples.jsonl', async () => {
    const dir = await copyWarm('diff-foreign');
    await cp(path.join(warm, 'data.json'), path.join(dir, 'data.json'));
    await copyFile(coldTrace, path.join(dir, 'trace-pytorch.json'));
    const result = await runBuiltCli(['diff', '--force', path.join(temp.path, 'intact'), dir, '--json'], {
      root: temp.path,
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(
        `^WARNING: RUN_B .*: trace-pytorch\\.json: its spans run from ${escapeRegExp(coldTraceStartIso())}`,
        'm',
      ),
    );
    expect(result.stderr).not.toMatch(/samples\.jsonl/);
  });
});
