import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTraceProblems, PerfettoTraceSchema } from '../../src/export/index.js';
import { writeFixtureRun } from '../../scripts/make-fixture-run.js';
import { createTempDir, type TempDir } from '../helpers/daemons/index.js';
import { assertCliBuilt, runBuiltCli } from '../helpers/run-built-cli.js';

// `rocm-perf export --perfetto` as users run it: the built CLI (bin/rocm-perf.js) on generated run dirs.

let temp: TempDir;

function runExport(args: string[]) {
  return runBuiltCli(['export', ...args], { root: temp.path });
}

beforeAll(async () => {
  await assertCliBuilt();
  temp = createTempDir('export-e2e');
  const common = {
    nodeCount: 3,
    durationSeconds: 1200,
    targetsPerNode: 2,
    sampleIntervalMs: 10_000,
    harness: 'warm' as const,
    seed: 21,
  };
  await writeFixtureRun({
    ...common,
    dir: path.join(temp.path, '20260310T000000Z'),
    stamp: '20260310T000000Z',
  });
  await writeFixtureRun({
    ...common,
    dir: path.join(temp.path, '20260311T000000Z'),
    stamp: '20260311T000000Z',
    withRunFile: false,
    withPlanFile: false,
  });
});

afterAll(() => temp?.remove());

describe('rocm-perf export --perfetto', () => {
  it('writes RUN/perfetto-trace.json in the Trace Event Format, exit 0', async () => {
    const result = await runExport(['--perfetto', '20260310T000000Z']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    const file = path.join(temp.path, '20260310T000000Z', 'perfetto-trace.json');
    expect(result.stdout).toMatch(
      new RegExp(
        `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\d+ trace events \\(warm run 20260310T000000Z\\); open it at https://ui.perfetto.dev$`,
      ),
    );
    const trace = PerfettoTraceSchema.parse(JSON.parse(await readFile(file, 'utf8')));
    expect(findTraceProblems(trace)).toEqual([]);
    expect(
      trace.traceEvents.filter((e) => e.ph === 'M' && e.name === 'process_name').map((e) => e.args.name),
    ).toEqual(expect.arrayContaining(['plan']));
    expect(trace.traceEvents.some((e) => e.ph === 's')).toBe(true);
    expect(trace.traceEvents.some((e) => e.ph === 'C' && e.name === 'cpu')).toBe(true);
  });

  it('writes to stdout with --out - and notes on stderr that a spec-only run has no arrows', async () => {
    const result = await runExport(['--perfetto', path.join(temp.path, '20260311T000000Z'), '--out', '-']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('note: no plan.json: dependencies unknown, so no flow arrows');
    const trace = PerfettoTraceSchema.parse(JSON.parse(result.stdout));
    expect(trace.otherData.harness).toBe('unknown');
    expect(trace.traceEvents.some((e) => e.ph === 's' || e.ph === 'f')).toBe(false);
    expect(findTraceProblems(trace)).toEqual([]);
  });

  it('writes where --out says', async () => {
    const out = path.join(temp.path, 'out.json');
    const result = await runExport(['--perfetto', '20260310T000000Z', '--out', out]);
    expect(result.exitCode).toBe(0);
    expect(PerfettoTraceSchema.safeParse(JSON.parse(await readFile(out, 'utf8'))).success).toBe(true);
  });

  it('exits 2 without a format flag, naming --perfetto and --otlp', async () => {
    const result = await runExport(['20260310T000000Z']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')).toEqual([
      'error: export: no format chosen',
      'hint: pass --perfetto (`rocm-perf export --perfetto RUN`) or --otlp URL (`rocm-perf export --otlp http://127.0.0.1:4318 RUN`)',
    ]);
  });

  it('exits 2 when given both --perfetto and --otlp', async () => {
    const result = await runExport(['--perfetto', '--otlp', 'http://127.0.0.1:4318', '20260310T000000Z']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')).toEqual([
      'error: export: --perfetto and --otlp both given',
      'hint: pass one format per run of `rocm-perf export`',
    ]);
  });

  it('warns and exits 1 after writing the trace when a build trace is not JSON', async () => {
    const dir = path.join(temp.path, 'damaged-export');
    await cp(path.join(temp.path, '20260310T000000Z'), dir, { recursive: true });
    const [traceFile] = (await readdir(dir)).filter((name) => /^trace-.+\.json$/.test(name));
    await writeFile(path.join(dir, traceFile!), 'garbage, not a trace\n');
    const out = path.join(temp.path, 'damaged.json');
    const result = await runExport(['--perfetto', dir, '--out', out]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(
      `WARNING: ${traceFile!}:1: not a trace: expected JSON, got "garbage, not a trace"`,
    );
    expect(result.stderr).toMatch(/error: \d+ loud warning\(s\): export wrote its output/);
    expect(PerfettoTraceSchema.safeParse(JSON.parse(await readFile(out, 'utf8'))).success).toBe(true);
  });

  it('refuses a directory that is not a run with exit 2 and writes nothing into it', async () => {
    const dir = path.join(temp.path, 'empty-export');
    await mkdir(dir);
    const result = await runExport(['--perfetto', dir]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(
      `error: ${dir}: not a run dir: no run.json, no lane.txt, and no trace-<target>.json beside another file of a run; it is empty. Nothing was read or written`,
    );
    expect(await readdir(dir)).toEqual([]);
  });
});
