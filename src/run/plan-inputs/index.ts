export { type PlanInputs, loadBakePrint, loadPlanInputs } from './load-plan-inputs.js';
