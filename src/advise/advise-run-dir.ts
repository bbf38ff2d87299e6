import type { Advice } from '../artifacts/index.js';
import { buildAdvice } from './build-advice.js';
import { readAdviseInput, type ReadAdviseInputOptions } from './read-advise-input.js';

/** The ranked advice for a run dir whose model is built (`rocm-perf advise`, and `report`'s Advice section). */
export async function adviseRunDir(options: ReadAdviseInputOptions): Promise<Advice[]> {
  return buildAdvice(await readAdviseInput(options));
}
