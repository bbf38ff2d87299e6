// .builders/target-costs: `build <target> <seconds>` (cold compile cost), `warm-build <target> <seconds>` (the
// same target's steps in a warm run, caches on), and `cache <target> <bytes>` (what it exports), `#` comments.
// `setup <target> <seconds>` and `warm-setup` are the seconds a target's run takes beyond its build steps and its
// uploads, as the harness sees it (starting bake, solving, exporting, pushing manifests): node-independent.
// `image <target> <bytes>` is the image push alone: what a cold or bench run uploads (they clear the cache export),
// so cold plans use it where known; `cache` stays the whole export a normal run makes.
// `memory <target> <bytes>` is the target's measured memory peak (the largest of its RUN steps' peaks over the runs
// `costs --from` read): the planner never puts it on a node whose memory_gb it exceeds. It has no spread line.
// Each other figure may carry a spread line, `<kind>-spread <target> <sigma> <runs>`: over `runs` runs the figure (their
// median) varied by the log-scale deviation `sigma` (0.1 ≈ ±10 %). The forecast draws from it (docs/forecast.md).

export interface TargetCost {
  buildSeconds: number | undefined;
  /** Build seconds of a warm run (layer cache and sccache on), when known: warm plans use it. */
  warmBuildSeconds: number | undefined;
  cacheBytes: number | undefined;
  /** Bytes of the image push alone (a cold run's whole upload), when known: cold plans use it. */
  imageBytes?: number | undefined;
  imageLine?: number | undefined;
  /** 1-based lines where each figure was given, for error messages. */
  buildLine: number | undefined;
  warmBuildLine: number | undefined;
  cacheLine: number | undefined;
  /** Seconds beyond build steps and uploads (cold or bench runs; `warm-setup`: warm runs), when known. */
  setupSeconds?: number | undefined;
  warmSetupSeconds?: number | undefined;
  setupLine?: number | undefined;
  warmSetupLine?: number | undefined;
  /** How much each figure varied over the runs it came from; undefined when no spread line was given. */
  buildSpread?: CostSpread | undefined;
  warmBuildSpread?: CostSpread | undefined;
  cacheSpread?: CostSpread | undefined;
  imageSpread?: CostSpread | undefined;
  setupSpread?: CostSpread | undefined;
  warmSetupSpread?: CostSpread | undefined;
  /** The measured memory peak, bytes (`memory` line). */
  memoryBytes?: number | undefined;
  memoryLine?: number | undefined;
}

/** A figure's spread over the runs it was measured in: sigma of ln(value) (a robust estimate), and how many runs. */
export interface CostSpread {
  sigma: number;
  runs: number;
  line: number;
}

type Kind = 'build' | 'warm-build' | 'cache' | 'image' | 'setup' | 'warm-setup' | 'memory';
type SpreadKind = Exclude<Kind, 'memory'>;
const KINDS = ['build', 'warm-build', 'cache', 'image', 'setup', 'warm-setup', 'memory'] as const;
const SPREAD_KINDS = ['build', 'warm-build', 'cache', 'image', 'setup', 'warm-setup'] as const;
const BYTE_KINDS: readonly Kind[] = ['cache', 'image', 'memory'];
const spreadFieldOf = {
  build: 'buildSpread',
  'warm-build': 'warmBuildSpread',
  cache: 'cacheSpread',
  image: 'imageSpread',
  setup: 'setupSpread',
  'warm-setup': 'warmSetupSpread',
} as const;
const fieldsOf = {
  build: ['buildSeconds', 'buildLine'],
  'warm-build': ['warmBuildSeconds', 'warmBuildLine'],
  cache: ['cacheBytes', 'cacheLine'],
  image: ['imageBytes', 'imageLine'],
  setup: ['setupSeconds', 'setupLine'],
  'warm-setup': ['warmSetupSeconds', 'warmSetupLine'],
  memory: ['memoryBytes', 'memoryLine'],
} as const;

export interface ParsedTargetCosts {
  costs: Map<string, TargetCost>;
  errors: string[];
}

const LINE = /^(build|warm-build|cache|image|setup|warm-setup|memory)\s+(\S+)\s+(\S+)\s*$/;
const SPREAD_LINE = /^(build|warm-build|cache|image|setup|warm-setup)-spread\s+(\S+)\s+(\S+)\s+(\S+)\s*$/;

function emptyCost(): TargetCost {
  return {
    buildSeconds: undefined,
    warmBuildSeconds: undefined,
    cacheBytes: undefined,
    buildLine: undefined,
    warmBuildLine: undefined,
    cacheLine: undefined,
  };
}

export function parseTargetCosts(text: string, source: string): ParsedTargetCosts {
  const costs = new Map<string, TargetCost>();
  const errors: string[] = [];
  text.split(/\r?\n/).forEach((rawLine, index) => {
    const lineNo = index + 1;
    const line = rawLine.replace(/#.*$/, '').trim();
    if (line === '') return;
    const spread = SPREAD_LINE.exec(line);
    if (spread) {
      readSpreadLine(spread as unknown as SpreadMatch, { lineNo, source, costs, errors });
      return;
    }
    const match = LINE.exec(line);
    if (!match) {
      errors.push(
        `${source}:${lineNo}: cannot read \`${rawLine.trim()}\`. Fix: write \`build <target> <seconds>\`, \`warm-build <target> <seconds>\`, \`cache <target> <bytes>\`, \`image <target> <bytes>\`, \`setup <target> <seconds>\`, \`warm-setup <target> <seconds>\`, \`memory <target> <bytes>\` or \`<kind>-spread <target> <sigma> <runs>\`.`,
      );
      return;
    }
    const [, kind, target, valueText] = match as unknown as [string, Kind, string, string];
    const value = Number(valueText);
    const bytes = BYTE_KINDS.includes(kind);
    if (!Number.isFinite(value) || value < 0 || (bytes && !Number.isInteger(value))) {
      errors.push(
        `${source}:${lineNo}: ${kind} ${target}: \`${valueText}\` is not a valid number of ${bytes ? 'bytes' : 'seconds'}. Fix: write a non-negative ${bytes ? 'integer' : 'number'}.`,
      );
      return;
    }
    if (kind === 'memory' && value === 0) {
      errors.push(
        `${source}:${lineNo}: memory ${target}: \`0\` is not a memory peak. Fix: write the peak in bytes (a positive integer), or remove the line.`,
      );
      return;
    }
    const cost = costs.get(target) ?? emptyCost();
    const [valueKey, lineKey] = fieldsOf[kind];
    const previous = cost[lineKey];
    if (previous !== undefined) {
      errors.push(
        `${source}:${lineNo}: ${kind} ${target}: given again (first on line ${previous}). Fix: keep one line.`,
      );
      return;
    }
    cost[valueKey] = value;
    cost[lineKey] = lineNo;
    costs.set(target, cost);
  });
  return { costs, errors };
}

type SpreadMatch = [string, SpreadKind, string, string, string];

function readSpreadLine(
  [, kind, target, sigmaText, runsText]: SpreadMatch,
  at: { lineNo: number; source: string; costs: Map<string, TargetCost>; errors: string[] },
): void {
  const where = `${at.source}:${at.lineNo}: ${kind}-spread ${target}`;
  const sigma = Number(sigmaText);
  const runs = Number(runsText);
  if (!Number.isFinite(sigma) || sigma < 0) {
    at.errors.push(
      `${where}: \`${sigmaText}\` is not a valid spread. Fix: write the log-scale deviation, a non-negative number (0.1 ≈ ±10 %).`,
    );
    return;
  }
  if (!Number.isInteger(runs) || runs < 1) {
    at.errors.push(
      `${where}: \`${runsText}\` is not a valid count of runs. Fix: write a whole number of runs, at least 1.`,
    );
    return;
  }
  const cost = at.costs.get(target) ?? emptyCost();
  const field = spreadFieldOf[kind];
  const previous = cost[field];
  if (previous !== undefined) {
    at.errors.push(`${where}: given again (first on line ${previous.line}). Fix: keep one line.`);
    return;
  }
  cost[field] = { sigma, runs, line: at.lineNo };
  at.costs.set(target, cost);
}

/** The spread lines a costs file may carry, per figure: sigma and the count of runs behind the median. */
export interface RenderedSpreads {
  buildSpread?: Pick<CostSpread, 'sigma' | 'runs'> | undefined;
  warmBuildSpread?: Pick<CostSpread, 'sigma' | 'runs'> | undefined;
  cacheSpread?: Pick<CostSpread, 'sigma' | 'runs'> | undefined;
  imageSpread?: Pick<CostSpread, 'sigma' | 'runs'> | undefined;
  setupSpread?: Pick<CostSpread, 'sigma' | 'runs'> | undefined;
  warmSetupSpread?: Pick<CostSpread, 'sigma' | 'runs'> | undefined;
}

/** Render costs back into the file format, sorted by target, for `rocm-perf costs`. */
export function renderTargetCosts(
  costs: ReadonlyMap<
    string,
    {
      buildSeconds: number;
      warmBuildSeconds?: number | undefined;
      cacheBytes: number | undefined;
      imageBytes?: number | undefined;
      setupSeconds?: number | undefined;
      warmSetupSeconds?: number | undefined;
      memoryBytes?: number | undefined;
    } & RenderedSpreads
  >,
  header: string[],
): string {
  const names = [...costs.keys()].sort();
  const lines = header.map((line) => `# ${line}`);
  // One block per kind, in KINDS order; `build` is always there (a derived cost has one).
  for (const kind of KINDS)
    for (const name of names) {
      const value = costs.get(name)?.[fieldsOf[kind][0]];
      if (value === undefined) continue;
      const text = BYTE_KINDS.includes(kind) ? String(Math.round(value)) : formatCostSeconds(value);
      lines.push(`${kind} ${name} ${text}`);
    }
  for (const kind of SPREAD_KINDS)
    for (const name of names) {
      const spread = costs.get(name)?.[spreadFieldOf[kind]];
      if (spread !== undefined)
        lines.push(`${kind}-spread ${name} ${formatSigma(spread.sigma)} ${spread.runs}`);
    }
  return `${lines.join('\n')}\n`;
}

/**
 * Seconds for a costs line: whole seconds from 100 s, three significant digits below (0.48, 7.25, 42.1), and never 0
 * for a target that took time (at least 0.001), so no measured target becomes free to the planner.
 */
function formatCostSeconds(seconds: number): string {
  if (!(seconds > 0)) return '0';
  if (seconds >= 100) return String(Math.round(seconds));
  return String(Math.max(0.001, Number(seconds.toPrecision(3))));
}

/** A spread to three decimals (0.081): finer than run-to-run noise can be told apart. */
function formatSigma(sigma: number): string {
  return String(Number(Math.max(0, sigma).toFixed(3)));
}
