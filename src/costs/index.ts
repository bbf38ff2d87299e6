// The public API of costs/: the runs `rocm-perf costs` learns from (the derivation is plan/derive-target-costs.ts).
export {
  type CostRun,
  buildCostsHeader,
  readCostRuns,
  refuseOtherBakeRuns,
  refuseOtherFleetRuns,
  refuseUnpoolableRuns,
} from './read-cost-runs.js';
