// The placement strategies' names: a module of its own, so the CLI's flag table can list them without the packer.

export const STRATEGY_NAMES = ['heft-ls', 'heft', 'lpt', 'build-only', 'stages'] as const;
export type StrategyName = (typeof STRATEGY_NAMES)[number];
export const DEFAULT_STRATEGY: StrategyName = 'heft-ls';

export const STRATEGY_DESCRIPTIONS: Record<StrategyName, string> = {
  'heft-ls':
    'best of HEFT, lookahead and optimistic-rank list schedules, then local search on the critical chain',
  heft: 'plain HEFT: upward rank on mean cost, each target to the node where it finishes soonest (insertion)',
  lpt: 'longest own cost first among ready targets, finish-soonest node; ranks ignore dependencies',
  'build-only': 'HEFT on build seconds alone (exports ignored when ranking and placing)',
  stages: 'stage barriers by dependency depth; finish-soonest placement inside each stage',
};
