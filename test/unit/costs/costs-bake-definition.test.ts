import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RunFileSchema, type RunFile } from '../../../src/artifacts/index.js';
import { digestBakeGraph } from '../../../src/graph/index.js';
import { BakePrintSchema } from '../../../src/graph/bake-print-schema.js';
import { createProgram } from '../../../src/program.js';
import { runHarness } from '../../../src/run/harness/run-harness.js';
import { createFakeWorld, FLEET_TARGETS, writeFleetFixture } from '../../helpers/harness-fixture.js';

// Issue 36 item 2: a run recorded with another bake definition must not teach this one. The harness (fakes for
// buildx and the hosts) records the digests of the graph it planned with in run.json; `costs --from` compares them
// with what fleet.yaml's bake print gives now. The costs cases run on a copy of the shipped warm sample (real
// BuildKit traces from the fleet in a box, planned with the shipped .builders/bake-print.gfx1201.json), given the
// digests that print has, on a fleet.yaml of the nodes it recorded; the edits are made to the print on disk, and
// which targets they reach is worked out here from the print's own `target:` contexts.

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const SHIPPED_PRINT = path.join(repoRoot, '.builders/bake-print.gfx1201.json');

let fixture: ReturnType<typeof writeFleetFixture>;
let dir = '';
let stdout: string[] = [];
let stderr: string[] = [];
beforeEach(() => {
  fixture = writeFleetFixture();
  dir = mkdtempSync(path.join(tmpdir(), 'costs-bake-'));
  [stdout, stderr] = [[], []];
});
afterEach(() => {
  vi.restoreAllMocks();
  fixture.remove();
  rmSync(dir, { recursive: true, force: true });
});

const readRun = (runDir: string): RunFile =>
  RunFileSchema.parse(JSON.parse(readFileSync(path.join(runDir, 'run.json'), 'utf8')));

interface RecordedNode {
  name: string;
  builder: string;
  address: string;
  linkMbps: number;
  speed: number;
}

/**
 * The warm sample copied, with run.json's `bake` as a harness would have recorded it from the shipped print (or
 * without it: a run recorded before it was kept), and a fleet.yaml of its own nodes whose bake print is a copy here.
 */
function writeSampleRun({ withDigest = true } = {}): {
  runDir: string;
  fleetPath: string;
  printPath: string;
} {
  const runDir = path.join(dir, 'run');
  cpSync(path.join(repoRoot, 'fixtures/runs/gfx1201-warm'), runDir, { recursive: true });
  const run = JSON.parse(readFileSync(path.join(runDir, 'run.json'), 'utf8')) as Record<string, unknown> & {
    targets: Record<string, unknown>;
    nodes: RecordedNode[];
  };
  const print = BakePrintSchema.parse(JSON.parse(readFileSync(SHIPPED_PRINT, 'utf8')));
  if (withDigest) run.bake = digestBakeGraph(print, Object.keys(run.targets));
  else delete run.bake;
  writeFileSync(path.join(runDir, 'run.json'), JSON.stringify(run, null, 2));
  const printPath = path.join(dir, '.builders/bake-print.gfx1201.json');
  mkdirSync(path.dirname(printPath));
  cpSync(SHIPPED_PRINT, printPath);
  cpSync(path.join(repoRoot, '.builders/target-costs'), path.join(dir, '.builders/target-costs'));
  const shipped = readFileSync(path.join(repoRoot, 'fleet.yaml'), 'utf8');
  const nodes = run.nodes.map(
    (node) =>
      `  - { name: ${node.name}, builder: ${node.builder}, address: ${node.address}, link_mbps: ${node.linkMbps}, speed: ${node.speed}, node_exporter: http://${node.address}:9100/metrics, ssh: { host: ${node.address}, user: builder } }`,
  );
  const fleetPath = path.join(dir, 'fleet.yaml');
  writeFileSync(fleetPath, `${shipped.slice(0, shipped.indexOf('\nnodes:'))}\nnodes:\n${nodes.join('\n')}\n`);
  return { runDir, fleetPath, printPath };
}

type Print = { target: Record<string, Record<string, unknown> & { contexts?: Record<string, string> }> };
const readPrint = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Print;

/** `name` and every target that reaches it through `target:` contexts, from the print itself. */
function withDependents(print: Print, name: string): string[] {
  const reached = new Set([name]);
  const linksTo = (entry: Print['target'][string]) =>
    Object.values(entry.contexts ?? {})
      .filter((value) => value.startsWith('target:'))
      .map((value) => value.slice('target:'.length));
  for (let grew = true; grew;) {
    grew = false;
    for (const [target, entry] of Object.entries(print.target))
      if (!reached.has(target) && linksTo(entry).some((dep) => reached.has(dep))) {
        reached.add(target);
        grew = true;
      }
  }
  return [...reached].sort();
}

function costs(runDir: string, fleetPath: string, ...extra: string[]) {
  vi.spyOn(console, 'log').mockImplementation((line: string) => void stdout.push(line));
  vi.spyOn(console, 'error').mockImplementation((line: string) => void stderr.push(line));
  return createProgram().parseAsync(
    [
      'costs',
      '--fleet',
      fleetPath,
      '--costs',
      path.join(dir, '.builders/target-costs'),
      '--from',
      runDir,
      '--dry-run',
      ...extra,
    ],
    { from: 'user' },
  );
}

describe('run.json records the bake graph the run planned with', () => {
  it('the harness records one digest per planned target, each of its own, and the graph digest', async () => {
    const fake = createFakeWorld({ sccacheLog: fixture.sccacheLog, registryLog: fixture.registryLog });
    const result = await runHarness({
      harness: 'warm',
      fleetPath: fixture.fleetPath,
      flags: {},
      root: path.join(fixture.dir, 'runs'),
      env: {},
      sshAgent: undefined,
      dockerConfigDir: '/nonexistent/.docker',
      logLevel: 'warn',
      dispatch: 'fixed',
      coldNamespaceSuffix: '',
      signal: new AbortController().signal,
      sampleIntervalMs: 10,
      logPollIntervalMs: 10,
      effects: fake.effects,
    });
    expect(result.exitCode).toBe(0);
    const { bake, targets } = readRun(result.runDir);
    expect(Object.keys(targets).sort()).toEqual([...FLEET_TARGETS].sort());
    expect(Object.keys(bake?.targets ?? {}).sort()).toEqual(Object.keys(targets).sort());
    expect(new Set(Object.values(bake!.targets)).size).toBe(FLEET_TARGETS.length);
    expect(bake!.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('costs --from a run of another bake definition', () => {
  it('takes the run while the print is the same definition, key order aside', async () => {
    const { runDir, fleetPath, printPath } = writeSampleRun();
    const reversed = (value: unknown): unknown =>
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(
            Object.entries(value)
              .reverse()
              .map(([key, entry]) => [key, reversed(entry)]),
          )
        : value;
    writeFileSync(printPath, JSON.stringify(reversed(readPrint(printPath))));
    await costs(runDir, fleetPath);
    expect(stdout.join('\n')).toMatch(/^warm-build pytorch /m);
    expect(stderr.join('\n')).not.toMatch(/bake definition|bake digest/);
  });

  it('refuses the run once a target’s definition changed, naming it and every target built on it; writes nothing', async () => {
    const { runDir, fleetPath, printPath } = writeSampleRun();
    const print = readPrint(printPath);
    print.target.pytorch!.args = { ...(print.target.pytorch!.args as object), PYTORCH_BRANCH: 'release/2.9' };
    writeFileSync(printPath, JSON.stringify(print));
    const error: unknown = await costs(runDir, fleetPath).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: 'ROCMPERF_USAGE', exitCode: 2 });
    const { message, hint } = error as { message: string; hint: string };
    const changed = withDependents(print, 'pytorch').filter((name) => name in readRun(runDir).targets);
    expect(changed.length).toBeGreaterThan(1);
    expect(message).toMatch(
      /^--from: a run was recorded with another bake definition than .*bake-print\.gfx1201\.json/,
    );
    expect(message).toContain(
      `${runDir}: defined differently now (its bake-print entry or a dependency's): ${changed.join(', ')}`,
    );
    expect(hint).toMatch(/--allow-other-bake/);
    expect(stdout).toEqual([]);
  });

  it('a target gone from the print, or one leaf changed, is named alone; --allow-other-bake goes ahead with a note', async () => {
    const { runDir, fleetPath, printPath } = writeSampleRun();
    const print = readPrint(printPath);
    expect(withDependents(print, 'aiter-wheel')).toEqual(['aiter-wheel']);
    expect(withDependents(print, 'xformers-wheel')).toEqual(['xformers-wheel']);
    print.target['aiter-wheel']!.dockerfile = 'aiter.Dockerfile';
    delete print.target['xformers-wheel'];
    writeFileSync(printPath, JSON.stringify(print));
    const finding = `${runDir}: defined differently now (its bake-print entry or a dependency's): aiter-wheel; not in the current bake print: xformers-wheel`;
    await expect(costs(runDir, fleetPath)).rejects.toThrow(finding);
    await costs(runDir, fleetPath, '--allow-other-bake');
    expect(stdout.join('\n')).toMatch(/^warm-build pytorch /m);
    expect(stderr).toContain(
      `note: --allow-other-bake: learning from a run recorded with another bake definition: ${finding}`,
    );
  });

  it('a run recorded before the digest was kept still works, with a note that its definition is not compared', async () => {
    const { runDir, fleetPath, printPath } = writeSampleRun({ withDigest: false });
    const print = readPrint(printPath);
    print.target.pytorch!.dockerfile = 'changed.Dockerfile';
    writeFileSync(printPath, JSON.stringify(print));
    await costs(runDir, fleetPath);
    expect(stdout.join('\n')).toMatch(/^warm-build pytorch /m);
    expect(stderr).toContain(
      `note: ${runDir}: run.json records no bake digest (recorded before it was kept), so its bake definition is not compared with the current one`,
    );
  });

  it('a print that cannot be read now is refused, with the fix and --allow-other-bake in the hint', async () => {
    const { runDir, fleetPath, printPath } = writeSampleRun();
    writeFileSync(printPath, '{ not json');
    const error: unknown = await costs(runDir, fleetPath).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: 'ROCMPERF_USAGE', exitCode: 2 });
    expect((error as Error).message).toMatch(
      /^--from: cannot compare the runs' bake definition with the current one: /,
    );
    expect((error as { hint: string }).hint).toMatch(/--allow-other-bake to learn without comparing$/);
    await costs(runDir, fleetPath, '--allow-other-bake');
    expect(stderr.join('\n')).toMatch(/^note: --allow-other-bake: cannot compare the runs' bake definition/m);
  });
});
