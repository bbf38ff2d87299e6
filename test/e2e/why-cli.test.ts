import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataFileSchema, type RunFile } from '../../src/artifacts/index.js';
import { createTempDir, type TempDir } from '../helpers/daemons/index.js';
import { assertCliBuilt, runBuiltCli } from '../helpers/run-built-cli.js';
import { makeRunSide } from '../unit/diff/make-run-side.js';
import type { RunSideSpec } from '../unit/diff/make-run-side.js';

// `report` and `diff` explain a warm run's misses from the files a run dir holds: the status streams, metadata
// files (mode=max provenance) and cache-debug dumps are the real captures of test/fixtures/buildkit-explain/
// (README there says what changed between steps); run.json and plan.json give timelines written out by hand, so the
// priced costs are arithmetic done here: A's app builds 11 → 31 s, B's 11 → 51 s, so B's miss cost 20 s. The run
// dirs hold no traces, so `report` exits 1 on their loud warnings (and on nothing else: `onlyTraceWarnings`).

const FIXTURES = path.join(import.meta.dirname, '../fixtures/buildkit-explain');
const NODES = [{ name: 'n1', speed: 1, linkMbps: 800 }];
const spec = (stamp: string, appBuildS: number): RunSideSpec => ({
  stamp,
  nodes: NODES,
  targets: [
    { target: 'lib', node: 'n1', startS: 1, buildS: 9, uploadS: 1, bytes: 0, finishS: 11 },
    {
      target: 'app',
      node: 'n1',
      waitFor: ['lib'],
      startS: 11,
      buildS: appBuildS,
      uploadS: 1,
      bytes: 0,
      finishS: 12 + appBuildS,
    },
  ],
});

let temp: TempDir;

/** A run dir: run.json + plan.json from the hand timeline (started `hour` h later), evidence from capture `step`. */
function writeRun(name: string, step: string, appBuildS: number, hour: number): string {
  const dir = path.join(temp.path, name);
  mkdirSync(dir, { recursive: true });
  const side = makeRunSide(spec(name, appBuildS));
  const shift = hour * 3600_000;
  const runFile: RunFile = {
    ...side.runFile,
    startedAtMs: side.runFile.startedAtMs + shift,
    measuredStartedAtMs: side.runFile.measuredStartedAtMs! + shift,
    finishedAtMs: side.runFile.finishedAtMs! + shift,
    targets: Object.fromEntries(
      Object.entries(side.runFile.targets).map(([t, o]) => [
        t,
        o.status === 'ok'
          ? { ...o, startedAtMs: o.startedAtMs + shift, finishedAtMs: o.finishedAtMs + shift }
          : o,
      ]),
    ),
    deps: { lib: [], app: ['lib'] },
  };
  writeFileSync(path.join(dir, 'run.json'), JSON.stringify(runFile));
  writeFileSync(path.join(dir, 'plan.json'), JSON.stringify(side.plan));
  for (const t of ['lib', 'app']) {
    copyFileSync(path.join(FIXTURES, `${step}-status-${t}.jsonl`), path.join(dir, `status-${t}.jsonl`));
    copyFileSync(path.join(FIXTURES, `${step}-meta-${t}.json`), path.join(dir, `meta-${t}.json`));
  }
  const debug = path.join(FIXTURES, `${step}-cache-debug.json`);
  try {
    copyFileSync(debug, path.join(dir, 'cache-debug-n1.json'));
  } catch {
    // the capture kept no dump for this step
  }
  return dir;
}

/** Every loud line on stderr is about a missing trace (these run dirs have none). */
function onlyTraceWarnings(stderr: string): boolean {
  const warnings = stderr.split('\n').filter((line) => line.startsWith('WARNING: '));
  return (
    warnings.length > 0 && warnings.every((line) => /WARNING: (?:\S+: )?trace-\w+\.json: missing/.test(line))
  );
}

const readModel = (dir: string) =>
  DataFileSchema.parse(JSON.parse(readFileSync(path.join(dir, 'data.json'), 'utf8')));

beforeAll(async () => {
  await assertCliBuilt();
  temp = createTempDir('why-e2e');
});
afterAll(() => temp?.remove());

describe('why a warm run missed, end to end', () => {
  it('report: files under COPY changed, against the previous run found under the root; +20 s of makespan', async () => {
    writeRun('20261206T100000Z-a', '03-arg', 19, 0);
    const b = writeRun('20261206T110000Z-b', '04-files', 39, 1);
    const result = await runBuiltCli(['report', b], { root: temp.path });
    expect(onlyTraceWarnings(result.stderr)).toBe(true);
    const model = readModel(b);
    expect(model.summary.why?.against).toBe('20261206T100000Z-a');
    const app = model.summary.targets.find((t) => t.target === 'app')!;
    expect(app.why).toEqual({
      firstMiss: {
        vertex: expect.stringMatching(/^sha256:/) as string,
        name: '[app stage-0 2/4] COPY src/app /src',
      },
      cause: {
        kind: 'files',
        instruction: 'COPY src/app /src',
        added: ['NEWS'],
        removed: [],
        changed: ['main.c'],
        count: 2,
      },
      rebuiltAfter: [],
      costSeconds: 20,
    });
    expect(model.summary.targets.find((t) => t.target === 'lib')!.why?.firstMiss).toBeNull();
    const md = readFileSync(path.join(b, 'report.md'), 'utf8');
    expect(md).toContain(
      'files under `COPY src/app /src`: 1 added (NEWS), 1 changed (main.c) changed `COPY src/app /src` of app; +20.00s of makespan',
    );
  });

  it('report --against: build arg ROCM_VERSION 6.4 → 6.5, priced', async () => {
    const a = writeRun('x-warm', '02-warm', 19, 2);
    const b = writeRun('x-arg', '03-arg', 24, 3);
    const result = await runBuiltCli(['report', b, '--against', a], { root: temp.path });
    expect(onlyTraceWarnings(result.stderr)).toBe(true);
    const app = readModel(b).summary.targets.find((t) => t.target === 'app')!;
    expect(app.why?.cause).toEqual({ kind: 'build-arg', name: 'ROCM_VERSION', old: '6.4', new: '6.5' });
    expect(app.why?.costSeconds).toBe(5);
  });

  it('a damaged metadata file: loud, naming the file; the report still writes; the cause is not guessed', async () => {
    const a = writeRun('y-warm', '02-warm', 19, 4);
    const b = writeRun('y-arg', '03-arg', 24, 5);
    writeFileSync(path.join(b, 'meta-app.json'), '{"app": {"buildx.build.provenance": ');
    const result = await runBuiltCli(['report', b, '--against', a], { root: temp.path });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^WARNING: meta-app\.json: not JSON .*left out of why/m);
    expect(onlyTraceWarnings(result.stderr)).toBe(false);
    const model = readModel(b);
    expect(model.summary.why?.notes.join('\n')).toMatch(/meta-app\.json: not JSON/);
    expect(model.summary.targets.find((t) => t.target === 'app')!.why?.cause?.kind).toBe('unknown');
  });

  it('a compared run that cannot be read: this run’s report is still written, the note names that run', async () => {
    const a = writeRun('w-warm', '02-warm', 19, 8);
    const b = writeRun('w-arg', '03-arg', 24, 9);
    writeFileSync(path.join(a, 'plan.json'), '{"version": 99}');
    const result = await runBuiltCli(['report', b, '--against', a], { root: temp.path });
    expect(onlyTraceWarnings(result.stderr)).toBe(true);
    const model = readModel(b);
    expect(model.summary.why?.against).toBeNull();
    expect(model.summary.why?.notes.join('\n')).toMatch(/^w-warm: not compared with \(.*plan\.json/m);
    expect(model.summary.targets.find((t) => t.target === 'app')!.why?.firstMiss).not.toBeNull();
  });

  it('diff A B --json: B’s misses against A with their cost; the md names the cause', async () => {
    const a = writeRun('z-instr-a', '04-files', 19, 6);
    const b = writeRun('z-instr-b', '05-instruction', 21, 7);
    const json = await runBuiltCli(['diff', a, b, '--json'], { root: temp.path });
    const diff = JSON.parse(json.stdout) as {
      version: number;
      why: { targets: { target: string; why: { cause: unknown; costSeconds: number } | null }[] };
    };
    expect(diff.version).toBe(4);
    const app = diff.why.targets.find((t) => t.target === 'app')!;
    expect(app.why?.cause).toMatchObject({
      kind: 'instruction',
      new: expect.stringContaining('echo built') as string,
    });
    expect(app.why?.costSeconds).toBe(2);
    const md = await runBuiltCli(['diff', a, b], { root: temp.path });
    expect(md.stdout).toContain('## Why targets missed the cache');
    expect(md.stdout).toContain('of app; +2.00s of makespan');
  });
});
