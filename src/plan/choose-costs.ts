// Which build figure a plan uses. A warm run's build terms collapse toward zero (layer cache and sccache hit) while
// its cache terms stay, which can invert which node is critical; so a warm plan takes each target's `warm-build`
// figure, and its cold `build` figure where no warm one is known (named, so the plan can say so).
import type { CostInput } from './problem.js';

export type CostMode = 'cold' | 'warm';

export interface CostSet {
  mode: CostMode;
  costs: Map<string, CostInput>;
  /** In a warm plan, the targets without a warm figure, planned with their cold build seconds. */
  coldBuildFor: string[];
}

export interface CostFigures {
  buildSeconds: number | undefined;
  warmBuildSeconds?: number | undefined;
  cacheBytes: number | undefined;
}

export function chooseCosts(figures: ReadonlyMap<string, CostFigures>, mode: CostMode): CostSet {
  const costs = new Map<string, CostInput>();
  const coldBuildFor: string[] = [];
  for (const [target, figure] of [...figures].sort(([a], [b]) => a.localeCompare(b))) {
    const warm = mode === 'warm' ? figure.warmBuildSeconds : undefined;
    if (mode === 'warm' && warm === undefined) coldBuildFor.push(target);
    costs.set(target, { buildSeconds: warm ?? figure.buildSeconds, cacheBytes: figure.cacheBytes });
  }
  return { mode, costs, coldBuildFor };
}

/** One line for the plan's reader: which figures it was made from. */
export function describeCostSet({
  mode,
  costs,
  coldBuildFor,
}: Pick<CostSet, 'mode' | 'coldBuildFor'> & { costs: { size: number } }): string {
  if (mode === 'cold') return 'costs: cold build seconds (`build` lines)';
  const warm = costs.size - coldBuildFor.length;
  if (warm === 0)
    return 'costs: warm plan, but no `warm-build` line yet: cold build seconds for every target (`rocm-perf costs --from WARM_RUN` adds them)';
  const rest =
    coldBuildFor.length === 0
      ? ''
      : `; cold build seconds for ${coldBuildFor.join(', ')} (no \`warm-build\` line)`;
  return `costs: warm build seconds for ${warm} of ${costs.size} targets (\`warm-build\` lines)${rest}`;
}
