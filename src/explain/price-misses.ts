import type { DataFile, Plan, RunFile, TargetWhy } from '../artifacts/index.js';
import { buildSideFigures } from '../diff/build-side-figures.js';
import { buildExplainInputs, createCoalitionValue, toBuildPlayer } from '../diff/build-explain-inputs.js';

// What each miss cost, in makespan seconds, by diff's own counterfactual replay (docs/run-diff.md,
// docs/explain.md). Pure. The replay is diff's: A is the compared run, B this one, and v(S) the makespan replayed
// with B's figures for the causes in S and A's for the rest. All causes from B is this run as the model replays
// it; the miss of target T cost v(all) − v(all without T and the targets rebuilt after it), i.e. what the makespan
// would shrink by had T and the targets it made rebuild taken their times from the compared run (their cached
// times when that run hit the cache).

export interface PricedRun {
  runFile: RunFile;
  plan: Plan;
  model: DataFile;
}

export interface MissPrices {
  /** Target → seconds (rounded to 0.1 s); a target the replay cannot price is absent. */
  costs: Map<string, number>;
  notes: string[];
}

export function priceMisses({
  why,
  compared,
  current,
}: {
  why: ReadonlyMap<string, TargetWhy>;
  compared: PricedRun;
  current: PricedRun;
}): MissPrices {
  const inputs = buildExplainInputs({ a: buildSideFigures(compared), b: buildSideFigures(current) });
  const value = createCoalitionValue(inputs);
  const all = new Set(inputs.players);
  const whole = value(all);
  const costs = new Map<string, number>();
  const notes: string[] = [];
  const replayed = new Set(inputs.targets);
  for (const [target, entry] of why) {
    if (!entry.firstMiss) continue;
    const rebuilt = [target, ...entry.rebuiltAfter];
    const outside = rebuilt.filter((t) => !replayed.has(t));
    if (outside.length > 0) {
      notes.push(
        `${target}: not priced (${outside.join(', ')} did not settle in both runs, so the replay cannot take its time from the compared run)`,
      );
      continue;
    }
    const without = new Set(all);
    for (const t of rebuilt) without.delete(toBuildPlayer(t));
    costs.set(target, Math.round((whole - value(without)) * 10) / 10);
  }
  return { costs, notes };
}
