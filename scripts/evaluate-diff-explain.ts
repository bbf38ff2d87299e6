// `node --import tsx scripts/evaluate-diff-explain.ts`: how well `rocm-perf diff` splits a makespan change by
// cause. Pairs: the hand-built runs of test/unit/diff/synthetic-pairs.ts (one or two causes changed by a known
// amount, every timeline worked out by hand, plus one pair whose causes overlap), and the real gfx1201 cold run
// against copies with one cause changed by hand (test/unit/diff/slow-fixture-run.ts). For each known cause: its
// isolated effect (truth), the exact Shapley share, a sampled share (forced, 2000 permutations, seed 29) with its
// standard error, and what is left in "other". Prints a markdown table; docs/run-diff.md quotes it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildRunDiff, buildRunDrag, type DiffSide } from '../src/diff/index.js';
import { type BuildRunDiffOptions } from '../src/diff/build-run-diff.js';
import { type CauseShare, type MakespanExplanation } from '../src/diff/build-makespan-explanation.js';
import { loadRunModel } from '../src/report/index.js';
import { makeRunSide } from '../test/unit/diff/make-run-side.js';
import {
  COLD_FIXTURE,
  writeSlowerBuildCopy,
  writeSlowerUploadCopy,
} from '../test/unit/diff/slow-fixture-run.js';
import { INTERACTING_PAIR, RUN_A, SYNTHETIC_PAIRS, type Truth } from '../test/unit/diff/synthetic-pairs.js';
import { openRunDir } from '../src/run-dir/open-run-dir.js';

interface EvaluatedPair {
  name: string;
  sides: Pick<BuildRunDiffOptions, 'a' | 'b'>;
  truths: Truth[];
}

function findShare(explanation: MakespanExplanation, truth: Truth): CauseShare | undefined {
  return explanation.causes.find(
    (c) =>
      c.kind === truth.cause &&
      (truth.subject === undefined ||
        (c.kind === 'build' && c.target === truth.subject) ||
        (c.kind === 'upload-throughput' && c.node === truth.subject)),
  );
}

async function loadSide(dir: string): Promise<DiffSide> {
  const loaded = await loadRunModel({ runDir: openRunDir(dir), nowMs: 0 });
  const { drag } = buildRunDrag({ runFile: loaded.runFile, plan: loaded.plan });
  return { model: loaded.model, drag, runFile: loaded.runFile, plan: loaded.plan };
}

/** The real cold run against its hand-changed copies; the truth is the whole measured change. */
async function listFixturePairs(root: string): Promise<EvaluatedPair[]> {
  const a = await loadSide(COLD_FIXTURE);
  const copies = [
    {
      name: 'real cold run, triton-wheel build +10 s',
      dir: writeSlowerBuildCopy(path.join(root, 't')),
      cause: 'build' as const,
      subject: 'triton-wheel',
    },
    {
      name: 'real cold run, kiln upload throughput lowered until kiln ends 10 s after the makespan',
      dir: writeSlowerUploadCopy(path.join(root, 'k')).dir,
      cause: 'upload-throughput' as const,
      subject: 'kiln',
    },
  ];
  const pairs: EvaluatedPair[] = [];
  for (const copy of copies) {
    const b = await loadSide(copy.dir);
    const delta = b.model.summary.makespanSeconds! - a.model.summary.makespanSeconds!;
    pairs.push({
      name: copy.name,
      sides: { a, b },
      truths: [{ cause: copy.cause, subject: copy.subject, isolatedSeconds: delta }],
    });
  }
  return pairs;
}

function printHeader(): void {
  console.log(
    '| pair | cause | truth (s) | exact share (s) | sampled share ± s.e. (s) | exact / truth | causes that differ | other (s) | Δ makespan (s) |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|');
}

const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;

function printPair(pair: EvaluatedPair): number {
  const exact = buildRunDiff({ ...pair.sides, force: true }).explanation!;
  const sampled = buildRunDiff({
    ...pair.sides,
    force: true,
    shapley: { exactMaxPlayers: 0, permutations: 2000 },
  }).explanation!;
  const other = exact.causes.find((c) => c.kind === 'other')!.shareSeconds;
  let worst = 0;
  for (const truth of pair.truths) {
    const share = findShare(exact, truth)?.shareSeconds ?? 0;
    const estimate = findShare(sampled, truth);
    worst = Math.max(worst, Math.abs(share - truth.isolatedSeconds) / Math.abs(exact.actualSeconds.delta!));
    console.log(
      `| ${pair.name} | ${truth.cause}${truth.subject ? ` ${truth.subject}` : ''} | ${signed(truth.isolatedSeconds)} | ${signed(share)} | ${signed(estimate?.shareSeconds ?? 0)} ± ${(estimate?.standardErrorSeconds ?? 0).toFixed(3)} | ${((share / truth.isolatedSeconds) * 100).toFixed(1)} % | ${exact.method.causes} | ${signed(other)} | ${signed(exact.actualSeconds.delta!)} |`,
    );
  }
  return worst;
}

/** The sampled split against the exact one where every build differs: the real cold run vs the real warm run. */
async function printSamplingError(): Promise<void> {
  const sides = {
    a: await loadSide(COLD_FIXTURE),
    b: await loadSide(path.resolve('fixtures/runs/gfx1201-warm')),
    force: true,
  };
  const sampled = buildRunDiff(sides).explanation!;
  const started = performance.now();
  const exact = buildRunDiff({ ...sides, shapley: { exactMaxPlayers: 30 } }).explanation!;
  const exactMs = performance.now() - started;
  const keyOf = (c: CauseShare) =>
    `${c.kind}:${c.kind === 'build' ? c.target : c.kind === 'upload-throughput' ? c.node : ''}`;
  let [worst, worstError, within] = [0, 0, 0];
  for (const cause of sampled.causes.filter((c) => c.kind !== 'other')) {
    const twin = exact.causes.find((c) => keyOf(c) === keyOf(cause))!;
    const gap = Math.abs(cause.shareSeconds - twin.shareSeconds);
    [worst, worstError] = [Math.max(worst, gap), Math.max(worstError, cause.standardErrorSeconds ?? 0)];
    if (gap <= 2 * (cause.standardErrorSeconds ?? 0) + 0.001) within++;
  }
  console.log(
    `\nSampled vs exact on the real cold vs warm runs (${sampled.method.causes} causes, ${sampled.method.permutations} permutations, seed ${sampled.method.seed}; exact over 2^${exact.method.causes} subsets took ${Math.round(exactMs)} ms): largest |sampled − exact| ${worst.toFixed(3)} s of a ${sampled.actualSeconds.delta} s change, largest standard error ${worstError.toFixed(3)} s, ${within} of ${sampled.method.causes} shares within 2 standard errors.`,
  );
}

async function main(): Promise<void> {
  const root = mkdtempSync(path.join(tmpdir(), 'rocm-perf-evaluate-explain-'));
  try {
    const toPair = (p: (typeof SYNTHETIC_PAIRS)[number]): EvaluatedPair => ({
      name: p.name,
      sides: { a: makeRunSide(RUN_A), b: makeRunSide(p.b) },
      truths: p.truths,
    });
    printHeader();
    let worst = 0;
    for (const pair of [...SYNTHETIC_PAIRS.map(toPair), ...(await listFixturePairs(root))])
      worst = Math.max(worst, printPair(pair));
    console.log(
      `\nworst |exact share − truth| / |Δ makespan| over the pairs above: ${(worst * 100).toFixed(2)} %`,
    );
    console.log(
      '\nOverlapping causes (each alone +20 s, together +20 s): no split gives both their isolated effect.\n',
    );
    printHeader();
    printPair(toPair(INTERACTING_PAIR));
    await printSamplingError();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
