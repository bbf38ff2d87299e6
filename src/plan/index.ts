export { toBuildSeconds, toCostTerms, toExportSeconds, type PlanNode } from './cost-model.js';
export { createPlan } from './create-plan.js';
export { findLowerBound } from './lower-bound.js';
export { createListCandidates, placeTargets } from './place-targets.js';
export { createProblem, type CostInput, type PlanGraph } from './problem.js';
export { simulatePlan } from './simulate-plan.js';
export { createTiming, evaluateOrder, type Timing } from './evaluate-order.js';
export { toTopologicalOrder } from './topological-order.js';
export { describeForecastMethod, renderComparison, renderForecast, renderPlan } from './render-plan.js';
export { buildCriticalDrag, type CriticalDrag, type RealisedSchedule } from './critical-drag.js';
export { toScheduleFromRun } from './to-schedule-from-run.js';
export { chooseGuidedTarget, type StartedTarget } from './choose-guided-target.js';
export { createDispatchGuide, toCostsFromPlan, type DispatchPlan } from './dispatch-guide.js';
export { simulateDispatch, type DispatchPolicy } from './simulate-dispatch.js';
export { applyFleetChanges, type FleetChanges } from './fleet-changes.js';
export { toReplayCosts } from './replay-costs.js';
export { replayRun, toRecordedQueues, type ReplayResult } from './replay-run.js';
export { renderReplay } from './render-replay.js';
export {
  findForecastPercentile,
  forecastMakespan,
  toStoredDistribution,
  type CostDistribution,
  type Forecast,
  type ForecastProgress,
} from './forecast-makespan.js';
export {
  describePlaceForSkipped,
  planFromFigures,
  planWithForecast,
  type PlaceFor,
} from './plan-with-forecast.js';
export { chooseCosts, describeCostSet, type CostFigures, type CostMode } from './choose-costs.js';
export { estimateLogSigma, findPoolingRefusals, poolFigure } from './pool-costs.js';
export { fitNodeSpeeds, type BuildObservation } from './fit-node-speeds.js';
export {
  learnFleet,
  measureUploadLinks,
  toFleetEdits,
  toUploadObservations,
  type LinkMeasurement,
  type UploadObservation,
} from './learn-fleet.js';
export { renderFleetLearning } from './render-fleet-learning.js';
