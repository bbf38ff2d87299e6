import { z } from 'zod';
import { ArtifactError } from '../shared/errors.js';
import { STRATEGY_NAMES } from './strategy-names.js';
import { formatZodIssues } from '../shared/format-zod-issues.js';

// plan.json: written by `rocm-perf plan --out`, kept in the run dir and read back by the harnesses.

export const PLAN_VERSION = 1;

const Seconds = z.number().nonnegative().describe('seconds from the start of the run');

const PlanTargetSchema = z.strictObject({
  node: z.string().describe('The node whose queue holds the target.'),
  startSeconds: Seconds,
  finishSeconds: Seconds,
  buildSeconds: z.number().nonnegative().describe('Build term on that node: build_t / speed_n.'),
  exportSeconds: z
    .number()
    .nonnegative()
    .describe('Export term on that node: cache_t / (link_mbps_n × 10^6).'),
  setupSeconds: z
    .number()
    .nonnegative()
    .default(0)
    .describe(
      'Seconds beyond build and export, the same on every node (target-costs `setup`); 0 in older plans.',
    ),
  memoryBytes: z
    .number()
    .positive()
    .optional()
    .describe(
      'The target’s measured memory peak (target-costs `memory`): guided dispatch never moves it to a node it does not fit. Absent: unknown.',
    ),
  deps: z.array(z.string()).describe('In-run dependencies (`target:` contexts).'),
  waitFor: z
    .array(z.string())
    .describe('What the queue runner waits for before starting: deps, plus the previous stage for `stages`.'),
});

const PlanNodeSchema = z.strictObject({
  name: z.string(),
  builder: z.string(),
  linkMbps: z.number().positive(),
  speed: z.number().positive(),
  memoryBytes: z
    .number()
    .positive()
    .optional()
    .describe('The node’s memory (fleet.yaml `memory_gb` × 2^30); absent: unknown.'),
  busySeconds: z.number().nonnegative(),
  idleSeconds: z.number().nonnegative(),
  dependencyWaitSeconds: z.number().nonnegative().describe('Idle while no target anywhere was ready.'),
  placementLossSeconds: z
    .number()
    .nonnegative()
    .describe('Idle while some target was ready but queued elsewhere.'),
});

const PlanLowerBoundSchema = z.strictObject({
  pathSeconds: z
    .number()
    .nonnegative()
    .describe('Longest dependency chain, each target at its cheapest node.'),
  loadSeconds: z.number().nonnegative().describe('Fractional load bound over all targets.'),
  windowSeconds: z
    .number()
    .nonnegative()
    .describe('Load bound of the targets confined between a head and a tail.'),
  targetSeconds: z.number().nonnegative().describe('The most expensive target at its cheapest node.'),
  path: z.array(z.string()),
});

const Share = z.number().nonnegative().describe('A share of the draws, 0–1.');

const BandSchema = z.strictObject({
  p10: z.number().nonnegative(),
  p50: z.number().nonnegative(),
  p90: z.number().nonnegative(),
});

const ForecastTargetsSchema = z.record(
  z.string(),
  z.strictObject({
    finish: BandSchema,
    duration: BandSchema,
    criticalShare: Share,
  }),
);

const ForecastNodesSchema = z.record(
  z.string(),
  z.strictObject({
    criticalShare: Share.describe('Share of draws with a critical-path target on the node.'),
    endsShare: Share.describe('Share of draws in which the node finishes last.'),
  }),
);

const QuantilesSchema = z
  .array(z.number().nonnegative())
  .describe('Makespan percentiles 0, 1, …, 100 (101 values): where an actual makespan lands.');

/** What every forecast records: how it was (or would be) drawn, the history behind it, the distributions. */
const forecastCommon = {
  seed: z.number().int(),
  policy: z.enum(['fixed', 'guided']).describe('The dispatch policy simulated.'),
  historyRuns: z.number().int().nonnegative().describe('The fewest runs behind any target’s figures.'),
  thinTargets: z.array(z.string()).describe('Targets with fewer than 3 runs of history.'),
  conditionedAtSeconds: z.number().nonnegative().nullable(),
  placedFor: z
    .enum(['median', 'p90'])
    .describe('What the placement minimised: the median-cost makespan, or the forecast p90.'),
  distributions: z
    .record(
      z.string(),
      z.strictObject({
        buildSeconds: z.number().nonnegative(),
        buildSigma: z.number().nonnegative(),
        buildRuns: z.number().int().nonnegative(),
        cacheBytes: z.number().nonnegative(),
        cacheSigma: z.number().nonnegative(),
        cacheRuns: z.number().int().nonnegative(),
        setupSeconds: z.number().nonnegative().default(0),
        setupSigma: z.number().nonnegative().default(0),
        setupRuns: z.number().int().nonnegative().default(1),
      }),
    )
    .describe('The cost distributions drawn from, so a live view can forecast again from the same ones.'),
};

const BandedForecastSchema = z.strictObject({
  ...forecastCommon,
  banded: z.literal(true).describe('Every target has 3+ runs of history: the band is shown.'),
  draws: z
    .number()
    .int()
    .positive()
    .describe('Monte Carlo draws behind the band (at most --draws; fewer once the band has settled).'),
  makespan: BandSchema,
  quantiles: QuantilesSchema,
  targets: ForecastTargetsSchema,
  nodes: ForecastNodesSchema,
});

const UnbandedForecastSchema = z.strictObject({
  ...forecastCommon,
  banded: z
    .literal(false)
    .describe('Some target has fewer than 3 runs: no band is shown, and none is drawn.'),
  draws: z.number().int().nonnegative().describe('0: nothing is drawn without a band to show.'),
  // Plans made before issue 36 drew the band anyway and kept it here; it is read and never shown.
  makespan: BandSchema.optional(),
  quantiles: QuantilesSchema.optional(),
  targets: ForecastTargetsSchema.optional(),
  nodes: ForecastNodesSchema.optional(),
});

const PlanForecastSchema = z
  .discriminatedUnion('banded', [BandedForecastSchema, UnbandedForecastSchema])
  .describe('The makespan forecast at planning time (docs/forecast.md).');

/** @internal */
export const PlanFileSchema = z.strictObject({
  version: z.literal(PLAN_VERSION),
  strategy: z.enum(STRATEGY_NAMES),
  arch: z.string(),
  createdAt: z.string().describe('ISO 8601 time the plan was made.'),
  makespanSeconds: z.number().nonnegative(),
  lowerBoundSeconds: z.number().nonnegative(),
  gap: z.number().describe('makespan / lower bound − 1: an upper bound on the distance from optimal.'),
  lowerBound: PlanLowerBoundSchema,
  queues: z.record(z.string(), z.array(z.string())).describe('Per node, its targets in execution order.'),
  targets: z.record(z.string(), PlanTargetSchema),
  criticalPath: z.array(z.string()).describe('The chain of targets that sets the makespan, first to last.'),
  nodes: z.array(PlanNodeSchema),
  costs: z
    .strictObject({
      mode: z.enum(['cold', 'warm']).describe('Which build figures: `build` (cold) or `warm-build` lines.'),
      coldBuildFor: z
        .array(z.string())
        .describe('In a warm plan, targets without a warm figure (cold used).'),
      fullExportFor: z
        .array(z.string())
        .default([])
        .describe(
          'In a cold plan, targets without an `image` figure: planned with their whole export (`cache`), though a cold run pushes only the image (absent in plans made before: empty).',
        ),
    })
    .default({ mode: 'cold', coldBuildFor: [], fullExportFor: [] })
    .describe('The cost set the plan was made from (absent in plans made before warm costs: cold).'),
  forecast: PlanForecastSchema.optional().describe('Absent in plans made before forecasts.'),
  memoryForbidden: z
    .array(
      z.strictObject({
        target: z.string(),
        node: z.string(),
        memoryBytes: z.number().positive().describe('The target’s measured memory peak.'),
        nodeMemoryBytes: z.number().positive(),
      }),
    )
    .optional()
    .describe(
      'Placements the memory rule forbade: the target’s measured peak is over the node’s memory (docs/planning.md). Present when some target’s peak and some node’s memory are known (then possibly empty); absent otherwise.',
    ),
});

export type Plan = z.output<typeof PlanFileSchema>;
export type PlanTarget = z.output<typeof PlanTargetSchema>;
export type PlanForecast = z.output<typeof PlanForecastSchema>;

/** Validate a parsed plan.json; a wrong or missing version says to re-plan. */
export function parsePlanFile(raw: unknown, source: string): Plan {
  const hint = 're-run `rocm-perf plan`';
  const version =
    typeof raw === 'object' && raw !== null ? (raw as { version?: unknown }).version : undefined;
  if (version !== PLAN_VERSION) {
    throw new ArtifactError(
      source,
      `plan version is \`${JSON.stringify(version)}\`, this rocm-perf reads version ${PLAN_VERSION}`,
      { hint },
    );
  }
  const parsed = PlanFileSchema.safeParse(raw);
  if (!parsed.success)
    throw new ArtifactError(source, `not a valid plan: ${formatZodIssues(parsed.error.issues)}`, { hint });
  return parsed.data;
}
