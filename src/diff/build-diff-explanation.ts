import type { DataFile, Plan, RunFile } from '../artifacts/index.js';
import { isRocmPerfError } from '../shared/errors.js';
import { buildMakespanExplanation, type MakespanExplanation } from './build-makespan-explanation.js';
import { buildSideFigures } from './build-side-figures.js';

// Two runs → the makespan change split by cause, or a note saying why there is none (a run without run.json or
// plan.json, or without a makespan; queues that cannot be replayed). Never a split made of zeros. Pure.

export const NO_EXPLANATION = 'no split of the makespan change by cause';

interface ExplainSide {
  model: DataFile;
  runFile?: RunFile;
  plan?: Plan;
}

export interface BuildDiffExplanationOptions {
  a: ExplainSide;
  b: ExplainSide;
  criticalPathB: readonly string[];
  /** For tests: the Shapley method's knobs. */
  shapley?: { exactMaxPlayers?: number; permutations?: number; seed?: number };
}

function findMissing({ a, b }: { a: ExplainSide; b: ExplainSide }): string[] {
  return (
    [
      ['A', a],
      ['B', b],
    ] as const
  ).flatMap(([label, side]) => [
    ...(side.runFile ? [] : [`run ${label} has no run.json`]),
    ...(side.plan ? [] : [`run ${label} has no plan.json`]),
    ...(side.model.summary.makespanSeconds === null ? [`run ${label} has no makespan`] : []),
  ]);
}

export function buildDiffExplanation({ a, b, criticalPathB, shapley }: BuildDiffExplanationOptions): {
  explanation: MakespanExplanation | null;
  notes: string[];
} {
  const missing = findMissing({ a, b });
  if (missing.length > 0 || !a.runFile || !a.plan || !b.runFile || !b.plan)
    return {
      explanation: null,
      notes: [
        `${NO_EXPLANATION}: ${missing.join(', ')} (the replays need the queues, waits and times of both)`,
      ],
    };
  try {
    const explanation = buildMakespanExplanation({
      a: buildSideFigures({ runFile: a.runFile, plan: a.plan, model: a.model }),
      b: buildSideFigures({ runFile: b.runFile, plan: b.plan, model: b.model }),
      actualSeconds: { a: a.model.summary.makespanSeconds!, b: b.model.summary.makespanSeconds! },
      criticalPathB,
      ...shapley,
    });
    return { explanation, notes: [] };
  } catch (error) {
    if (!isRocmPerfError(error)) throw error;
    return { explanation: null, notes: [`${NO_EXPLANATION}: ${error.message}`] };
  }
}
