export {
  toBuildSeconds,
  toCostTerms,
  toExportSeconds,
  type CostTerms,
  type PlanNode,
  type TargetCostFigures,
} from './cost-model.js';
export { createPlan, type CreatePlanOptions } from './create-plan.js';
export { findLowerBound, type LowerBound } from './lower-bound.js';
export { createListCandidates, isStrategyName, placeTargets, toStrategyName } from './place-targets.js';
export { createProblem, type CostInput, type PlanGraph, type PlanProblem } from './problem.js';
export {
  simulatePlan,
  type DurationNoise,
  type Simulation,
  type SimulatePlanOptions,
} from './simulate-plan.js';
export {
  renderClock,
  renderForecast,
  renderComparison,
  renderDuration,
  renderPlan,
  type StrategyComparisonRow,
} from './render-plan.js';
export {
  buildCriticalDrag,
  type BuildCriticalDragOptions,
  type CriticalDrag,
  type CriticalPathEntry,
  type PlannedTiming,
  type RealisedSchedule,
  type ScheduledTarget,
  type TargetVersusPlan,
} from './critical-drag.js';
export { toIdleSplit, type NodeIdle } from './split-idle.js';
export {
  toScheduleFromRun,
  type RunSchedule,
  type ScheduledRunTarget,
  type ToScheduleFromRunOptions,
} from './to-schedule-from-run.js';
export {
  chooseGuidedTarget,
  type ChooseGuidedTargetOptions,
  type GuidedChoice,
  type StartedTarget,
} from './choose-guided-target.js';
export {
  createDispatchGuide,
  toCostsFromPlan,
  type DispatchGuide,
  type DispatchPlan,
  type GuidedReason,
  type GuidedTuning,
} from './dispatch-guide.js';
export {
  simulateDispatch,
  type DispatchPolicy,
  type DispatchSimulation,
  type SimulateDispatchOptions,
} from './simulate-dispatch.js';
export {
  applyFleetChanges,
  describeFleetChanges,
  isFleetChanged,
  type FleetChanges,
} from './fleet-changes.js';
export {
  isColdRun,
  toReplayCosts,
  type FigureSource,
  type ReplayCost,
  type ToReplayCostsOptions,
} from './replay-costs.js';
export {
  findActualMakespanSeconds,
  replayRun,
  toRecordedQueues,
  type ReplayResult,
  type ReplayRunOptions,
} from './replay-run.js';
export { renderReplay } from './render-replay.js';
export {
  ASSUMED_SIGMA,
  DEFAULT_FORECAST_DRAWS,
  MIN_HISTORY_RUNS,
  drawFigure,
  findForecastPercentile,
  forecastMakespan,
  toStoredDistribution,
  type Band,
  type CostDistribution,
  type Forecast,
  type ForecastOptions,
  type ForecastProgress,
  type TargetForecast,
} from './forecast-makespan.js';
export {
  planFromFigures,
  planWithForecast,
  toPercentileCosts,
  type PlaceFor,
  type PlanFromFiguresOptions,
  type PlanWithForecastOptions,
} from './plan-with-forecast.js';
export {
  chooseCostDistributions,
  chooseCosts,
  describeCostSet,
  type FigureSpread,
  type CostFigures,
  type CostMode,
  type CostSet,
} from './choose-costs.js';
export {
  estimateLogSigma,
  findPoolingRefusals,
  poolFigure,
  poolTargetCost,
  type PoolableRun,
  type PooledFigure,
  type PooledSpreads,
  type PoolingRefusal,
  type TargetSamples,
} from './pool-costs.js';
export {
  fitNodeSpeeds,
  type BuildObservation,
  type SpeedEstimate,
  type SpeedFit,
} from './fit-node-speeds.js';
export {
  learnFleet,
  measureUploadLinks,
  toFleetEdits,
  toUploadObservations,
  type FleetEdit,
  type FleetLearning,
  type LinkMeasurement,
  type UploadObservation,
} from './learn-fleet.js';
export { renderFleetLearning } from './render-fleet-learning.js';
export { measureSetupSeconds } from './measure-setup.js';
