import { z } from 'zod';
import { parseYamlWithLines } from '../config/index.js';
import type { MetricFamily } from '../serve/index.js';
import {
  at,
  createContractResult,
  type ContractProblem,
  type ContractResult,
  type SourceLocation,
} from './contract-result.js';
import { escapeRegExp, findLine } from './find-line.js';
import { findPromqlSelectors } from './find-promql-selectors.js';

// Pair `prometheus-rules`: an alert/recording rule file (contrib/prometheus/rocm-perf-rules.yml, or the user's copy)
// against what `serve` exports on /metrics (serve/metrics/metric-catalog.ts). A rule reading a series nobody exports
// evaluates to nothing, so its alert can never fire, silently: the failure mode contracts exist for. Every series a
// rule's expression selects must be a family serve exports, a series the file records itself, or one Prometheus makes
// itself; every label its matchers name must be one that family carries (or job/instance, which the scrape adds).

export interface CheckPrometheusRulesOptions {
  rulesText: string;
  rulesPath: string;
  families: readonly MetricFamily[];
  catalogAt: SourceLocation;
}

/** Series Prometheus writes itself (the scrape's own, the alert state). */
const PROMETHEUS_OWN = new Set([
  'up',
  'ALERTS',
  'ALERTS_FOR_STATE',
  'scrape_duration_seconds',
  'scrape_samples_scraped',
  'scrape_samples_post_metric_relabeling',
  'scrape_series_added',
]);
const SCRAPE_LABELS = ['job', 'instance'];

const RuleFileSchema = z.looseObject({
  groups: z.array(
    z.looseObject({
      name: z.string(),
      rules: z.array(
        z.looseObject({
          record: z.string().optional(),
          alert: z.string().optional(),
          expr: z.union([z.string(), z.number()]),
        }),
      ),
    }),
  ),
});

interface RuleAt {
  title: string;
  expr: string;
  /** 1-based line where the rule's expression starts. */
  line: number | undefined;
}

function toOffsetOfLine(text: string, line: number): number {
  let offset = 0;
  for (let current = 1; current < line; current += 1) {
    const next = text.indexOf('\n', offset);
    if (next === -1) return offset;
    offset = next + 1;
  }
  return offset;
}

function checkRule(
  rule: RuleAt,
  context: {
    text: string;
    path: string;
    families: Map<string, MetricFamily>;
    recorded: Set<string>;
    catalogAt: SourceLocation;
  },
): { problems: ContractProblem[]; read: string[] } {
  const problems: ContractProblem[] = [];
  const read: string[] = [];
  const from = rule.line === undefined ? 0 : toOffsetOfLine(context.text, rule.line);
  for (const selector of findPromqlSelectors(rule.expr)) {
    const where = at(
      context.path,
      findLine(context.text, new RegExp(`\\b${escapeRegExp(selector.name)}\\b`), from) ?? rule.line,
    );
    if (context.recorded.has(selector.name) || PROMETHEUS_OWN.has(selector.name)) continue;
    const family = context.families.get(selector.name);
    if (!family) {
      problems.push({
        message: `${rule.title} reads \`${selector.name}\`, which rocm-perf serve does not export: the rule evaluates to nothing and never fires. Fix: use a series docs/metrics.md lists${suggest(selector.name, context.families)}.`,
        producer: where,
        consumer: context.catalogAt,
      });
      continue;
    }
    read.push(selector.name);
    for (const label of selector.labels)
      if (!family.labels.includes(label) && !SCRAPE_LABELS.includes(label))
        problems.push({
          message: `${rule.title} matches \`${selector.name}\` on label \`${label}\`, which that series does not carry (its labels: ${family.labels.join(', ') || 'none'}; the scrape adds job, instance). Fix: match on one of those.`,
          producer: where,
          consumer: context.catalogAt,
        });
  }
  return { problems, read };
}

/** The exported name sharing the longest prefix with a wrong one, as a hint. */
function suggest(name: string, families: Map<string, MetricFamily>): string {
  let best = '';
  let bestLength = 0;
  for (const candidate of families.keys()) {
    let length = 0;
    while (length < name.length && name[length] === candidate[length]) length += 1;
    if (length > bestLength) [best, bestLength] = [candidate, length];
  }
  return bestLength > 'rocm_perf_'.length ? ` (did you mean \`${best}\`?)` : '';
}

export function checkPrometheusRules(options: CheckPrometheusRulesOptions): ContractResult {
  const { rulesText, rulesPath, catalogAt } = options;
  const title = `${rulesPath} ↔ serve /metrics`;
  const parsed = parseYamlWithLines(rulesText, rulesPath);
  const shape = RuleFileSchema.safeParse(parsed.value);
  if (parsed.errors.length > 0 || !shape.success) {
    const why =
      parsed.errors[0] ??
      `not a Prometheus rule file: ${shape.error?.issues[0]?.path.join('.')}: ${shape.error?.issues[0]?.message}`;
    return createContractResult({
      pair: 'prometheus-rules',
      title,
      problems: [
        {
          message: `${why}. Fix: groups: [{ name, rules: [{ alert|record, expr }] }] as promtool check rules takes.`,
          producer: at(rulesPath, 1),
          consumer: catalogAt,
        },
      ],
    });
  }
  const families = new Map(options.families.map((family) => [family.name, family]));
  const recorded = new Set(
    shape.data.groups.flatMap((g) => g.rules.flatMap((r) => (r.record ? [r.record] : []))),
  );
  const problems: ContractProblem[] = [];
  const read = new Set<string>();
  shape.data.groups.forEach((group, g) =>
    group.rules.forEach((rule, r) => {
      const name = rule.alert ?? rule.record ?? `rule ${r + 1}`;
      const result = checkRule(
        {
          title: `groups[${g}].rules[${r}] (${name})`,
          expr: String(rule.expr),
          line: parsed.lineOf(['groups', g, 'rules', r], 'expr'),
        },
        { text: rulesText, path: rulesPath, families, recorded, catalogAt },
      );
      problems.push(...result.problems);
      for (const series of result.read) read.add(series);
    }),
  );
  const rules = shape.data.groups.reduce((sum, g) => sum + g.rules.length, 0);
  return createContractResult({
    pair: 'prometheus-rules',
    title,
    problems,
    notes: [
      `${rules} rules read ${read.size} of the ${families.size} series serve exports, and ${recorded.size} recorded in the file`,
    ],
  });
}
