// The public API of run/plan-inputs/: fleet.yaml, target-costs and the bake graph, for `plan`, `costs` and the harness.
export { type PlanInputs, loadBakePrint, loadPlanInputs } from './load-plan-inputs.js';
