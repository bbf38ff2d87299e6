export { createPlan } from './create-plan.js';
export { createTiming, evaluateOrder, type Timing } from './evaluate-order.js';
export { toTopologicalOrder } from './topological-order.js';
export { describeForecastMethod, renderComparison, renderForecast, renderPlan } from './render-plan.js';
export { buildCriticalDrag, type CriticalDrag } from './critical-drag.js';
export { toScheduleFromRun } from './to-schedule-from-run.js';
export { chooseGuidedTarget, type StartedTarget } from './choose-guided-target.js';
export { type DispatchPlan } from './dispatch-guide.js';
export { type FleetChanges } from './fleet-changes.js';
export { replayRun } from './replay-run.js';
export { renderReplay } from './render-replay.js';
export {
  findForecastPercentile,
  forecastMakespan,
  type CostDistribution,
  type Forecast,
  type ForecastProgress,
} from './forecast-makespan.js';
export { describePlaceForSkipped, planFromFigures, type PlaceFor } from './plan-with-forecast.js';
export { chooseCosts, describeCostSet, type CostMode } from './choose-costs.js';
export { findPoolingRefusals } from './pool-costs.js';
export {
  learnFleet,
  measureUploadLinks,
  toFleetEdits,
  toUploadObservations,
  type LinkMeasurement,
} from './learn-fleet.js';
export { renderFleetLearning } from './render-fleet-learning.js';
export { type DerivedCosts, type RunTraces, deriveTargetCosts } from './derive-target-costs.js';
