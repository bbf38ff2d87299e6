// .builders/target-costs: `build <target> <seconds>` and `cache <target> <bytes>`, `#` comments.

export interface TargetCost {
  buildSeconds: number | undefined;
  cacheBytes: number | undefined;
  /** 1-based lines where each figure was given, for error messages. */
  buildLine: number | undefined;
  cacheLine: number | undefined;
}

export interface ParsedTargetCosts {
  costs: Map<string, TargetCost>;
  errors: string[];
}

const LINE = /^(build|cache)\s+(\S+)\s+(\S+)\s*$/;

function emptyCost(): TargetCost {
  return { buildSeconds: undefined, cacheBytes: undefined, buildLine: undefined, cacheLine: undefined };
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
        `${source}:${lineNo}: cannot read \`${rawLine.trim()}\`. Fix: write \`build <target> <seconds>\` or \`cache <target> <bytes>\`.`,
      );
      return;
    }
    const [, kind, target, valueText] = match as unknown as [string, 'build' | 'cache', string, string];
    const value = Number(valueText);
    const unit = kind === 'build' ? 'seconds' : 'bytes';
    if (!Number.isFinite(value) || value < 0 || (kind === 'cache' && !Number.isInteger(value))) {
      errors.push(
        `${source}:${lineNo}: ${kind} ${target}: \`${valueText}\` is not a valid number of ${unit}. Fix: write a non-negative ${kind === 'cache' ? 'integer' : 'number'}.`,
      );
      return;
    }
    const cost = costs.get(target) ?? emptyCost();
    const previous = kind === 'build' ? cost.buildLine : cost.cacheLine;
    if (previous !== undefined) {
      errors.push(
        `${source}:${lineNo}: ${kind} ${target}: given again (first on line ${previous}). Fix: keep one line.`,
      );
      return;
    }
    if (kind === 'build') Object.assign(cost, { buildSeconds: value, buildLine: lineNo });
    else Object.assign(cost, { cacheBytes: value, cacheLine: lineNo });
    costs.set(target, cost);
  });
  return { costs, errors };
}

/** Render costs back into the file format, sorted by target, for `rocm-perf costs`. */
export function renderTargetCosts(
  costs: ReadonlyMap<string, { buildSeconds: number; cacheBytes: number | undefined }>,
  header: string[],
): string {
  const names = [...costs.keys()].sort();
  const lines = header.map((line) => `# ${line}`);
  for (const name of names) lines.push(`build ${name} ${Math.round(costs.get(name)?.buildSeconds ?? 0)}`);
  for (const name of names) {
    const bytes = costs.get(name)?.cacheBytes;
    if (bytes !== undefined) lines.push(`cache ${name} ${Math.round(bytes)}`);
  }
  return `${lines.join('\n')}\n`;
}
