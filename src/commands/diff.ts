import { openRunDir } from '../run-dir/index.js';
import path from 'node:path';
import {
  buildRunDiff,
  buildRunDrag,
  renderRunDiffHtml,
  renderRunDiffMd,
  type DiffSide,
} from '../diff/index.js';
import { buildPartialRunError, findRunDir, listLoudWarningLines, loadRunModel } from '../report/index.js';
import { throwFileAccessError } from '../shared/to-file-access-error.js';
import { writeFileAtomic } from '../shared/write-file-atomic.js';
import { explainRunDir } from '../explain/index.js';
import type { DiffValues } from './flags/index.js';

async function loadSide(
  run: string,
  root: string,
  against?: string,
): Promise<DiffSide & { folder: string; dir: string }> {
  const loaded = await loadRunModel({
    runDir: openRunDir(await findRunDir({ run, root })),
    nowMs: Date.now(),
  });
  // B's misses are explained against A (docs/explain.md), whatever its stored data.json compared with.
  const model =
    against === undefined
      ? loaded.model
      : await explainRunDir({
          runDir: loaded.runDir,
          model: loaded.model,
          runFile: loaded.runFile,
          plan: loaded.plan,
          against,
          nowMs: Date.now(),
        });
  const { drag, notes } = buildRunDrag({ runFile: loaded.runFile, plan: loaded.plan });
  return {
    folder: loaded.stamp,
    dir: loaded.dir,
    model,
    drag,
    runFile: loaded.runFile,
    plan: loaded.plan,
    notes: [...loaded.notes, ...notes],
  };
}

// `rocm-perf diff RUN_A RUN_B`: what changed between two runs of the same harness, opening with the makespan
// change split by cause (markdown, or --json; --html FILE also writes a page). Exit 1 after printing when either
// run has loud warnings (a damaged input file leaves some of its figures partial).
export async function runDiffCommand(options: DiffValues): Promise<void> {
  const a = await loadSide(options.runA, options.root);
  const b = await loadSide(options.runB, options.root, a.dir);
  const diff = buildRunDiff({ a, b, force: options.force });
  // A warning is about a file: name the folder it is in (the run's address), not the run's own stamp.
  const sides = [
    { label: `RUN_A ${a.folder}`, model: a.model },
    { label: `RUN_B ${b.folder}`, model: b.model },
  ];
  for (const line of listLoudWarningLines(sides)) console.error(line);
  console.log(options.json ? JSON.stringify(diff, null, 2) : renderRunDiffMd(diff).trimEnd());
  if (options.html !== undefined) {
    const out = path.resolve(options.html);
    await writeFileAtomic(out, renderRunDiffHtml(diff)).catch(
      throwFileAccessError({
        path: options.html,
        flag: '--html',
        doing: 'write the diff page',
        example: 'diff.html',
      }),
    );
    console.error(`note: diff page written to ${out}`);
  }
  const failure = buildPartialRunError({ command: 'diff', sides });
  if (failure) throw failure;
}
