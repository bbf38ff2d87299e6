import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataFileSchema, RunFileSchema, type DataFile } from '../../../src/artifacts/index.js';
import { buildReportModel } from '../../../src/report/build-model.js';
import { readRunInputs } from '../../../src/run-dir/index.js';
import { buildRunSummary, renderSummaryMd, renderSummaryText } from '../../../src/summary/index.js';
import {
  expectMarkdownMatchesRows,
  expectSummaryMatchesData,
  findBiggestOverrun,
} from '../../helpers/check-run-summary.js';
import { openRunDir } from '../../../src/run-dir/open-run-dir.js';

// The end-of-run summary (docs/summary.md) of the shipped sample runs (fixtures/runs: a cold run of the fleet in a
// box and the explained warm pair), held to each run's data.json by figures computed in
// test/helpers/check-run-summary.ts, not by the summary's own code.

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const SERVE = { url: 'http://127.0.0.1:8137/runs/STAMP/', command: 'rocm-perf serve --root /runs' };

function readModel(dir: string): DataFile {
  return DataFileSchema.parse(JSON.parse(readFileSync(path.join(repoRoot, dir, 'data.json'), 'utf8')));
}

function summarise(model: DataFile | undefined, runDir: string, exitCode = 0) {
  return buildRunSummary({
    model,
    run: {
      stamp: model?.run.stamp ?? 'STAMP',
      harness: model?.run.harness ?? 'warm',
      status: model?.run.status ?? 'completed',
      exitCode,
      warnings: ['writing the report (run `rocm-perf report` on this run dir to retry) failed: ENOSPC'],
    },
    runDir,
    serve: SERVE,
    joinPath: (dir, name) => path.join(dir, name),
  });
}

const SAMPLES = [
  'fixtures/runs/gfx1201-cold',
  'fixtures/runs/gfx1201-warm',
  'fixtures/runs/gfx1201-warm-before',
];
/** `52.701` → `52.70s`, as the summary shows seconds under a minute. */
const shown = (seconds: number) => `${seconds.toFixed(2)}s`;

describe('the end-of-run summary of a finished run', () => {
  it.each(SAMPLES)('%s: every figure is data.json’s, the parts add up as printed', (dir) => {
    const model = readModel(dir);
    const summary = summarise(model, `/runs/${path.basename(dir)}`);
    const text = renderSummaryText(summary);
    const rows = expectSummaryMatchesData(text, model, {
      runDir: `/runs/${path.basename(dir)}`,
      serveUrl: SERVE.url,
      exitCode: 0,
    });
    expectMarkdownMatchesRows(renderSummaryMd(summary), text.split('\n')[0]!, rows);
  });

  it('the explained warm run: the biggest overrun is torchaudio-wheel, its cause the rebuilt pytorch', () => {
    const model = readModel('fixtures/runs/gfx1201-warm');
    const worst = findBiggestOverrun(model);
    // Independently: 1.696 s recorded against the plan's 3.196 → 4.8 s slot on kiln.
    expect(worst).toMatchObject({ target: 'torchaudio-wheel', node: 'kiln' });
    const summary = summarise(model, '/runs/w');
    expect(summary.overrun).toMatchObject({
      kind: 'overrun',
      target: 'torchaudio-wheel',
      node: worst!.node,
      cause: { known: true },
    });
    expect(renderSummaryText(summary)).toContain(
      'why: dependency pytorch rebuilt and that changed `COPY --from=pytorch /out/pytorch.txt /deps/pytorch.txt` of torchaudio-wheel',
    );
  });

  it('a cold run: its overrun is said unexplained, never guessed', () => {
    const model = readModel('fixtures/runs/gfx1201-cold');
    // The recorded cold run's one overrun (onnxruntime-wheel, 16.05 s against a 15.83 s slot), found independently.
    const worst = findBiggestOverrun(model);
    expect(summarise(model, '/r').overrun).toMatchObject({
      kind: 'overrun',
      target: worst!.target,
      cause: { known: false },
    });
    const slow = structuredClone(model);
    const pytorch = slow.summary.targets.find((t) => t.target === 'pytorch')!;
    pytorch.totalSeconds = (pytorch.totalSeconds ?? 0) + 20;
    const overrun = summarise(slow, '/r').overrun;
    expect(overrun).toMatchObject({ kind: 'overrun', target: 'pytorch', cause: { known: false } });
    expect(JSON.stringify(overrun)).toMatch(/cold run misses every step by design/);
  });

  it('a makespan exactly as planned (as shown) reads ±0, and a minute-long one adds up at whole seconds', () => {
    const model = readModel('fixtures/runs/gfx1201-cold');
    const asPlanned = structuredClone(model);
    asPlanned.summary.makespanSeconds = (model.summary.plannedMakespanSeconds ?? 0) + 0.001;
    const text = renderSummaryText(summarise(asPlanned, '/r'));
    const plan = shown(model.summary.plannedMakespanSeconds!);
    const bound = shown(model.summary.lowerBoundSeconds!);
    expect(model.summary.lowerBoundSeconds).toBe(model.summary.plannedMakespanSeconds);
    expect(text).toMatch(
      new RegExp(`^makespan\\s+${plan} = plan ${plan} ±0 = lower bound ${bound} ±0$`, 'm'),
    );
    expectSummaryMatchesData(text, asPlanned, { runDir: '/r', serveUrl: SERVE.url, exitCode: 0 });
    const long = structuredClone(model);
    long.summary.makespanSeconds = 65.4;
    const longText = renderSummaryText(summarise(long, '/r'));
    // 1m05s as shown, less the plan as shown: the parts add up at whole seconds.
    const over = `\\+${shown(65 - Number(model.summary.plannedMakespanSeconds!.toFixed(2)))}`;
    expect(longText).toMatch(
      new RegExp(`^makespan\\s+1m05s = plan ${plan} ${over} = lower bound ${bound} ${over}$`, 'm'),
    );
    expectSummaryMatchesData(longText, long, { runDir: '/r', serveUrl: SERVE.url, exitCode: 0 });
  });

  it('a run with no band says why, with no figure made up', () => {
    const text = renderSummaryText(summarise(readModel('fixtures/runs/gfx1201-warm-before'), '/r'));
    expect(text).toMatch(
      /^forecast\s+no band yet: 13 targets had fewer than 3 runs of history \(fewest 1\)/m,
    );
    expect(text).not.toMatch(/percentile/);
  });
});

/**
 * The warm sample as an interrupted run leaves it: one target cancelled mid-build (torchvision-wheel: a cancelled
 * record is no overrun), one never started.
 */
async function buildInterruptedModel(): Promise<{ dir: string; model: DataFile }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'summary-interrupted-'));
  cpSync(path.join(repoRoot, 'fixtures/runs/gfx1201-warm'), dir, { recursive: true });
  const run = RunFileSchema.parse(JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')));
  const cancelled = run.targets['torchvision-wheel']!;
  run.targets['torchvision-wheel'] = {
    status: 'interrupted',
    node: cancelled.node,
    startedAtMs: cancelled.status === 'ok' ? cancelled.startedAtMs : 0,
    finishedAtMs: cancelled.status === 'ok' ? cancelled.finishedAtMs : 0,
    error: 'cancelled by SIGINT',
  };
  run.targets['vllm-wheel'] = { status: 'skipped', node: 'bench', reason: 'interrupted' };
  rmSync(path.join(dir, 'trace-vllm-wheel.json'));
  Object.assign(run, { status: 'interrupted', exitCode: 130, interruptedBy: 'SIGINT' });
  writeFileSync(path.join(dir, 'run.json'), JSON.stringify(run));
  const model = buildReportModel(await readRunInputs({ runDir: openRunDir(dir), generatedAtMs: Date.now() }));
  return { dir, model };
}

describe('the summary of a run that did not finish', () => {
  it('interrupted: partial makespan not compared, no percentile, the unfinished named, overrun among the finished only', async () => {
    const { dir, model } = await buildInterruptedModel();
    try {
      expect(model.run.status).toBe('interrupted');
      const summary = summarise(model, dir, 130);
      const text = renderSummaryText(summary);
      expectSummaryMatchesData(text, model, { runDir: dir, serveUrl: SERVE.url, exitCode: 130 });
      expect(text).toMatch(/^── rocm-perf warm \S+: interrupted \(exit 130\), 11 of 13 targets ok$/m);
      expect(text).toMatch(/^not ok\s+torchvision-wheel interrupted, vllm-wheel skipped$/m);
      expect(text).toMatch(/^forecast\s+no percentile: the run was interrupted/m);
      expect(text).toMatch(/^makespan\s+\S+ \(partial: the run was interrupted\)/m);
      expect(summary.overrun).toMatchObject({ kind: 'overrun', target: 'torchaudio-wheel' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('no report (it failed): says so with run.json’s warnings, and no figure', () => {
    const text = renderSummaryText(summarise(undefined, '/runs/x', 2));
    expect(text).toMatch(/^── rocm-perf warm STAMP: completed \(exit 2\)$/m);
    expect(text).toMatch(/^report\s+not written: `rocm-perf report \/runs\/x` retries$/m);
    expect(text).toMatch(/^\s+WARNING: writing the report .* failed: ENOSPC$/m);
    expect(text).not.toMatch(/\d+\.\d+s/);
  });
});

describe('the summary as markdown', () => {
  it('is inert: a name from a run file cannot bring raw HTML into the job summary', () => {
    const model = readModel('fixtures/runs/gfx1201-warm');
    const evil = structuredClone(model);
    evil.summary.criticalPath.measured[0] = '<img src=x onerror=alert(1)>';
    const md = renderSummaryMd(summarise(evil, '/r'));
    expect(md).toContain('&lt;img src=x onerror=alert(1)>');
    expect(md).not.toContain('<img');
  });
});
