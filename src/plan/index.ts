export { toBuildSeconds, toCostTerms, toExportSeconds, type CostTerms, type PlanNode, type TargetCostFigures } from './cost-model.js';
export { createPlan, type CreatePlanOptions } from './create-plan.js';
export { findLowerBound, type LowerBound } from './lower-bound.js';
export { DEFAULT_STRATEGY, STRATEGY_DESCRIPTIONS, STRATEGY_NAMES, isStrategyName, placeTargets, toStrategyName, type StrategyName } from './place-targets.js';
export { PLAN_VERSION, PlanFileSchema, parsePlanFile, type Plan, type PlanTarget } from './plan-file.js';
export { createProblem, type CostInput, type PlanGraph, type PlanProblem } from './problem.js';
export { simulatePlan, type DurationNoise, type Simulation, type SimulatePlanOptions } from './simulate-plan.js';
export { renderClock, renderComparison, renderDuration, renderPlan, type StrategyComparisonRow } from './render-plan.js';
