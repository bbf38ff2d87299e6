// .builders/target-costs: `build <target> <seconds>` (cold compile cost), `warm-build <target> <seconds>` (the
// same target's steps in a warm run, caches on), and `cache <target> <bytes>` (what it exports), `#` comments.

export interface TargetCost {
  buildSeconds: number | undefined;
  /** Build seconds of a warm run (layer cache and sccache on), when known: warm plans use it. */
  warmBuildSeconds: number | undefined;
  cacheBytes: number | undefined;
  /** 1-based lines where each figure was given, for error messages. */
  buildLine: number | undefined;
  warmBuildLine: number | undefined;
  cacheLine: number | undefined;
}

type Kind = 'build' | 'warm-build' | 'cache';
const fieldsOf = {
  build: ['buildSeconds', 'buildLine'],
  'warm-build': ['warmBuildSeconds', 'warmBuildLine'],
  cache: ['cacheBytes', 'cacheLine'],
} as const;

export interface ParsedTargetCosts {
  costs: Map<string, TargetCost>;
  errors: string[];
}

const LINE = /^(build|warm-build|cache)\s+(\S+)\s+(\S+)\s*$/;

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
    const match = LINE.exec(line);
    if (!match) {
      errors.push(
        `${source}:${lineNo}: cannot read \`${rawLine.trim()}\`. Fix: write \`build <target> <seconds>\`, \`warm-build <target> <seconds>\` or \`cache <target> <bytes>\`.`,
      );
      return;
    }
    const [, kind, target, valueText] = match as unknown as [string, Kind, string, string];
    const value = Number(valueText);
    const unit = kind === 'cache' ? 'bytes' : 'seconds';
    if (!Number.isFinite(value) || value < 0 || (kind === 'cache' && !Number.isInteger(value))) {
      errors.push(
        `${source}:${lineNo}: ${kind} ${target}: \`${valueText}\` is not a valid number of ${unit}. Fix: write a non-negative ${kind === 'cache' ? 'integer' : 'number'}.`,
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

/** Render costs back into the file format, sorted by target, for `rocm-perf costs`. */
export function renderTargetCosts(
  costs: ReadonlyMap<
    string,
    { buildSeconds: number; warmBuildSeconds?: number | undefined; cacheBytes: number | undefined }
  >,
  header: string[],
): string {
  const names = [...costs.keys()].sort();
  const lines = header.map((line) => `# ${line}`);
  for (const name of names)
    lines.push(`build ${name} ${formatCostSeconds(costs.get(name)?.buildSeconds ?? 0)}`);
  for (const name of names) {
    const seconds = costs.get(name)?.warmBuildSeconds;
    if (seconds !== undefined) lines.push(`warm-build ${name} ${formatCostSeconds(seconds)}`);
  }
  for (const name of names) {
    const bytes = costs.get(name)?.cacheBytes;
    if (bytes !== undefined) lines.push(`cache ${name} ${Math.round(bytes)}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Seconds for a costs line: whole seconds from 100 s, three significant digits below (0.48, 7.25, 42.1), and never 0
 * for a target that took time (at least 0.001), so no measured target becomes free to the planner.
 */
export function formatCostSeconds(seconds: number): string {
  if (!(seconds > 0)) return '0';
  if (seconds >= 100) return String(Math.round(seconds));
  return String(Math.max(0.001, Number(seconds.toPrecision(3))));
}
