import { loadPlanInputs } from '../config/load-plan-inputs.js';
import { parseTargetList, type PlanInputOptions } from './options.js';

export interface PlanCommandOptions extends PlanInputOptions {
  strategy?: string;
  compare: boolean;
  out?: string;
}

// Placeholder until the packer lands: validates the inputs and prints the graph.
export async function runPlanCommand(options: PlanCommandOptions): Promise<void> {
  const inputs = await loadPlanInputs({
    fleetPath: options.fleet,
    flags: { arch: options.arch, targets: parseTargetList(options.targets), costsPath: options.costs, bakePrintPath: options.bakeJson },
  });
  console.log(JSON.stringify(inputs.graph, null, 2));
}
