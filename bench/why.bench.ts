// `npm run bench:why` (issue 37, "Speed"): what explaining a 13-target warm run adds to `report`. Two copies of
// fixtures/runs/gfx1201-warm in one runs root (B started an hour after A), each of the 13 targets given a real
// mode=max metadata file and every node a real /debug/cache/all dump (test/fixtures/buildkit-explain/), so the
// explainer reads, parses and compares all of it and prices every miss with diff's replay. Side by side in one
// process, interleaved: `report`'s own work (readRunInputs + buildReportModel) and explainRunDir on top of it. Prints
// the medians; exits 1 when explaining adds more than 1 s (the goal). BENCH_ROUNDS (default 7).
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RunFileSchema } from '../src/artifacts/index.js';
import { readPlanFileIfPresent } from '../src/run-dir/plan-file-io.js';
import { explainRunDir } from '../src/explain/index.js';
import { buildReportModel } from '../src/report/build-model.js';
import { readRunInputs } from '../src/run-dir/index.js';
import { openRunDir } from '../src/run-dir/open-run-dir.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const GOAL_MS = 1000;
const fixtures = path.join(repoRoot, 'test/fixtures/buildkit-explain');
const work = mkdtempSync(path.join(tmpdir(), 'rocm-perf-why-bench-'));

function writeRun(name: string, shiftMs: number, step: string): string {
  const dir = path.join(work, name);
  cpSync(path.join(repoRoot, 'fixtures/runs/gfx1201-warm'), dir, { recursive: true });
  for (const file of ['data.json', 'report.md', 'index.html']) rmSync(path.join(dir, file), { force: true });
  const run = RunFileSchema.parse(JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')));
  run.startedAtMs += shiftMs;
  delete run.files; // the copies' metadata files change below: no digest to hold them to
  writeFileSync(path.join(dir, 'run.json'), JSON.stringify(run));
  const meta = JSON.parse(readFileSync(path.join(fixtures, `${step}-meta-app.json`), 'utf8')) as {
    app: unknown;
  };
  for (const target of Object.keys(run.targets))
    writeFileSync(path.join(dir, `meta-${target}.json`), JSON.stringify({ [target]: meta.app }));
  const dump = readFileSync(path.join(fixtures, `${step}-cache-debug.json`));
  for (const node of run.nodes) writeFileSync(path.join(dir, `cache-debug-${node.name}.json`), dump);
  return dir;
}

writeRun('a', 0, '03-arg');
const b = writeRun('b', 3600_000, '04-files');
console.log(`runs root ${work}: ${readdirSync(work).join(', ')}; ${ROUNDS} rounds`);

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const report: number[] = [];
const explain: number[] = [];
let explained = 0;
for (let round = 0; round < ROUNDS; round += 1) {
  const t0 = performance.now();
  const runDir = openRunDir(b);
  const inputs = await readRunInputs({ runDir, generatedAtMs: Date.now() });
  const model = buildReportModel(inputs);
  const t1 = performance.now();
  const withWhy = await explainRunDir({
    runDir,
    model,
    runFile: inputs.run,
    plan: await readPlanFileIfPresent(runDir),
    nowMs: Date.now(),
  });
  const t2 = performance.now();
  report.push(t1 - t0);
  explain.push(t2 - t1);
  explained = withWhy.summary.targets.filter((t) => t.why !== null).length;
}
rmSync(work, { recursive: true, force: true });
const added = median(explain);
console.log(`report (read + model), median: ${median(report).toFixed(0)} ms`);
console.log(`explaining ${explained} targets against the previous run, median: ${added.toFixed(0)} ms added`);
console.log(`goal: ≤ ${GOAL_MS} ms added — ${added <= GOAL_MS ? 'met' : 'MISSED'}`);
if (added > GOAL_MS || explained !== 13) process.exitCode = 1;
