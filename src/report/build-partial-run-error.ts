import type { DataFile } from '../artifacts/index.js';
import { ExitCode, RocmPerfError } from '../shared/errors.js';
import { listPartialFiles } from './mark-partial-figures.js';

// The one failure `report`, `diff` and `export` end with after writing their output from a run with loud warnings
// (a damaged or drifted input file, a missing trace, …): exit 1, the files whose damage left figures partial named.
// The warnings themselves are printed above it, one `WARNING:` line each. Pure.

export interface PartialRunSide {
  /** How the run is named in the warnings, e.g. the run dir or `RUN_B 20261203T180845Z`. */
  label: string;
  model: DataFile;
}

/** Each loud warning of each run as the line printed to stderr. */
export function listLoudWarningLines(sides: readonly PartialRunSide[]): string[] {
  const prefix = sides.length > 1;
  return sides.flatMap(({ label, model }) =>
    model.summary.warnings
      .filter((w) => w.level === 'loud')
      .map((w) => `WARNING: ${prefix ? `${label}: ` : ''}${w.message}`),
  );
}

/** The error to end with, or undefined when no run has a loud warning. */
export function buildPartialRunError({
  command,
  sides,
}: {
  command: 'report' | 'diff' | 'export' | 'import' | 'advise';
  sides: readonly PartialRunSide[];
}): RocmPerfError | undefined {
  const loud = sides.map((side) => ({
    ...side,
    count: side.model.summary.warnings.filter((w) => w.level === 'loud').length,
    files: listPartialFiles(side.model.summary),
  }));
  const total = loud.reduce((sum, side) => sum + side.count, 0);
  if (total === 0) return undefined;
  const where = loud
    .filter((side) => side.count > 0)
    .map(
      (side) =>
        `${side.label}: ${side.count} loud warning(s)${side.files.length ? `; partial figures from ${side.files.join(', ')}` : ''}`,
    );
  return new RocmPerfError(
    'ROCMPERF_RUN_WARNINGS',
    `${total} loud warning(s): ${command} wrote its output, but some figures in it are partial or may read 0 (the WARNING lines above say which file and what is missing):\n  ${where.join('\n  ')}`,
    {
      exitCode: ExitCode.failures,
      hint: 'the figures marked partial count only what the damaged files still hold; restore the files from the run host or a copy, or re-run, then run the command again',
    },
  );
}
