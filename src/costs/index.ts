export {
  type CostRun,
  buildCostsHeader,
  readCostRuns,
  refuseOtherBakeRuns,
  refuseOtherFleetRuns,
  refuseUnpoolableRuns,
} from './read-cost-runs.js';
