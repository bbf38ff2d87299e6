import type { DataFile } from '../artifacts/index.js';
import { buildPartialRunError, listLoudWarningLines } from '../report/index.js';
import { importRun } from '../import/index.js';
import { runExtractTarballLazily } from '../run/executors/load-lazily.js';
import { UsageError } from '../shared/errors.js';
import type { ImportValues } from './flags/index.js';
import { writeExplainedReport } from './write-explained-report.js';

/** The lane a source comes in as: --lane, else `ci` for a CI build record (.dockerbuild), else refused. */
function resolveImportLane(options: ImportValues): string {
  if (options.lane !== undefined) return options.lane;
  if (options.source.endsWith('.dockerbuild')) return 'ci';
  throw new UsageError(`import: no --lane for ${options.source}`, {
    hint: 'name where the run was recorded: `rocm-perf import --lane nightly-aws SRC` (a .dockerbuild comes in as lane `ci` unless told)',
  });
}

// `rocm-perf import --lane NAME SRC`: a run recorded elsewhere comes in under --root as lane NAME.
// The imported run passes the report's checks: its loud warnings are printed and it ends with exit 1, as `report`.
export async function runImportCommand(options: ImportValues): Promise<void> {
  let model: DataFile | undefined;
  const lane = resolveImportLane(options);
  const imported = await importRun({
    source: options.source,
    lane,
    root: options.root,
    force: options.force,
    extractTarball: runExtractTarballLazily,
    // As `report` writes it: a warm run's misses explained against the previous run of its lane under --root.
    rewriteReport: async (dir) => {
      model = (await writeExplainedReport({ dir, root: options.root, runsRoot: options.root })).model;
    },
  });
  console.log(
    `${imported.replaced ? 'replaced' : 'imported'} run ${imported.stamp} as lane ${lane}: ${imported.dir}`,
  );
  if (model === undefined) return;
  const sides = [{ label: imported.dir, model }];
  for (const line of listLoudWarningLines(sides)) console.error(line);
  const failure = buildPartialRunError({ command: 'import', sides });
  if (failure) throw failure;
}
