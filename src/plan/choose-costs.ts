// Which build figure a plan uses. A warm run's build terms collapse toward zero (layer cache and sccache hit) while
// its cache terms stay, which can invert which node is critical; so a warm plan takes each target's `warm-build`
// figure, and its cold `build` figure where no warm one is known (named, so the plan can say so). A cold run clears
// the cache export and pushes only the image, so a cold plan's upload term takes each target's `image` bytes, and
// its whole export (`cache`) where no image figure is known (named likewise: it overstates the upload).
import type { CostDistribution } from './forecast-makespan.js';
import type { CostInput } from './problem.js';

export type CostMode = 'cold' | 'warm';

export interface CostSet {
  mode: CostMode;
  costs: Map<string, CostInput>;
  /** In a warm plan, the targets without a warm figure, planned with their cold build seconds. */
  coldBuildFor: string[];
  /** In a cold plan, the targets without an `image` figure, planned with their whole export's bytes. */
  fullExportFor: string[];
}

export interface CostFigures {
  buildSeconds: number | undefined;
  warmBuildSeconds?: number | undefined;
  cacheBytes: number | undefined;
  imageBytes?: number | undefined;
  buildSpread?: FigureSpread | undefined;
  warmBuildSpread?: FigureSpread | undefined;
  cacheSpread?: FigureSpread | undefined;
  imageSpread?: FigureSpread | undefined;
  setupSeconds?: number | undefined;
  warmSetupSeconds?: number | undefined;
  setupSpread?: FigureSpread | undefined;
  warmSetupSpread?: FigureSpread | undefined;
  /** The measured memory peak, bytes (target-costs `memory`). */
  memoryBytes?: number | undefined;
}

/** The setup figure of a mode: a warm plan's `warm-setup`, else `setup`; 0 and no spread when neither is known. */
function chooseSetup(
  figure: CostFigures,
  mode: CostMode,
): { seconds: number; spread?: FigureSpread | undefined } {
  if (mode === 'warm' && figure.warmSetupSeconds !== undefined)
    return { seconds: figure.warmSetupSeconds, spread: figure.warmSetupSpread };
  return { seconds: figure.setupSeconds ?? 0, spread: figure.setupSpread };
}

/** The bytes a plan of this mode uploads: a cold plan's `image` figure where known, else the whole export. */
function chooseBytes(
  figure: CostFigures,
  mode: CostMode,
): { bytes: number | undefined; spread?: FigureSpread | undefined; fullExport: boolean } {
  if (mode === 'cold' && figure.imageBytes !== undefined)
    return { bytes: figure.imageBytes, spread: figure.imageSpread, fullExport: false };
  return { bytes: figure.cacheBytes, spread: figure.cacheSpread, fullExport: mode === 'cold' };
}

/** A figure's spread over the runs behind it (a `<kind>-spread` line): sigma of its ln and the count of runs. */
interface FigureSpread {
  sigma: number;
  runs: number;
}

export function chooseCosts(figures: ReadonlyMap<string, CostFigures>, mode: CostMode): CostSet {
  const costs = new Map<string, CostInput>();
  const coldBuildFor: string[] = [];
  const fullExportFor: string[] = [];
  for (const [target, figure] of [...figures].sort(([a], [b]) => a.localeCompare(b))) {
    const warm = mode === 'warm' ? figure.warmBuildSeconds : undefined;
    if (mode === 'warm' && warm === undefined) coldBuildFor.push(target);
    const bytes = chooseBytes(figure, mode);
    if (bytes.fullExport) fullExportFor.push(target);
    costs.set(target, {
      buildSeconds: warm ?? figure.buildSeconds,
      cacheBytes: bytes.bytes,
      setupSeconds: chooseSetup(figure, mode).seconds,
      memoryBytes: figure.memoryBytes,
    });
  }
  return { mode, costs, coldBuildFor, fullExportFor };
}

/** One line for the plan's reader: which figures it was made from. */
export function describeCostSet({
  mode,
  costs,
  coldBuildFor,
  fullExportFor,
}: Pick<CostSet, 'mode' | 'coldBuildFor' | 'fullExportFor'> & { costs: { size: number } }): string {
  if (mode === 'cold') {
    const image = costs.size - fullExportFor.length;
    if (fullExportFor.length === 0)
      return 'costs: cold build seconds (`build` lines), image push bytes (`image` lines)';
    if (image === 0)
      return 'costs: cold build seconds (`build` lines); no `image` line yet: whole-export bytes (`cache` lines) for every target, though a cold run pushes only the image (`rocm-perf costs --from COLD_RUN` adds them)';
    return `costs: cold build seconds (\`build\` lines), image push bytes for ${image} of ${costs.size} targets (\`image\` lines); whole-export bytes for ${fullExportFor.join(', ')} (no \`image\` line)`;
  }
  const warm = costs.size - coldBuildFor.length;
  if (warm === 0)
    return 'costs: warm plan, but no `warm-build` line yet: cold build seconds for every target (`rocm-perf costs --from WARM_RUN` adds them)';
  const rest =
    coldBuildFor.length === 0
      ? ''
      : `; cold build seconds for ${coldBuildFor.join(', ')} (no \`warm-build\` line)`;
  return `costs: warm build seconds for ${warm} of ${costs.size} targets (\`warm-build\` lines)${rest}`;
}

/**
 * The same choice as `chooseCosts`, as distributions for the forecast: each figure's median with the spread of the
 * line it came from. A figure without a spread line counts as one run (no spread known).
 */
export function chooseCostDistributions(
  figures: ReadonlyMap<string, CostFigures>,
  mode: CostMode,
): Map<string, CostDistribution> {
  const out = new Map<string, CostDistribution>();
  for (const [target, figure] of figures) {
    const warm = mode === 'warm' && figure.warmBuildSeconds !== undefined;
    const buildSeconds = warm ? figure.warmBuildSeconds : figure.buildSeconds;
    if (buildSeconds === undefined || figure.cacheBytes === undefined) continue;
    const buildSpread = warm ? figure.warmBuildSpread : figure.buildSpread;
    const setup = chooseSetup(figure, mode);
    const bytes = chooseBytes(figure, mode);
    if (bytes.bytes === undefined) continue;
    out.set(target, {
      buildSeconds,
      buildSigma: buildSpread?.sigma ?? 0,
      buildRuns: buildSpread?.runs ?? 1,
      cacheBytes: bytes.bytes,
      cacheSigma: bytes.spread?.sigma ?? 0,
      cacheRuns: bytes.spread?.runs ?? 1,
      setupSeconds: setup.seconds,
      setupSigma: setup.spread?.sigma ?? 0,
      setupRuns: setup.spread?.runs ?? 1,
    });
  }
  return out;
}
