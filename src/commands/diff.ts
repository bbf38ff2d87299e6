import { buildRunDiff, buildRunDrag, renderRunDiffMd, type DiffSide } from '../diff/index.js';
import { findRunDir, loadRunModel } from '../report/index.js';
import type { DiffValues } from './flags/index.js';

async function loadSide(run: string, root: string): Promise<DiffSide> {
  const loaded = await loadRunModel({ dir: await findRunDir({ run, root }), nowMs: Date.now() });
  const { drag, notes } = buildRunDrag({ runFile: loaded.runFile, plan: loaded.plan });
  return { model: loaded.model, drag, notes: [...loaded.notes, ...notes] };
}

// `rocm-perf diff RUN_A RUN_B`: what changed between two runs of the same harness (markdown, or --json).
export async function runDiffCommand(options: DiffValues): Promise<void> {
  const a = await loadSide(options.runA, options.root);
  const b = await loadSide(options.runB, options.root);
  const diff = buildRunDiff({ a, b, force: options.force });
  console.log(options.json ? JSON.stringify(diff, null, 2) : renderRunDiffMd(diff).trimEnd());
}
