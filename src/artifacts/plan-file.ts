import { z } from 'zod';
import { ArtifactError } from '../shared/errors.js';
import { STRATEGY_NAMES } from './strategy-names.js';

// plan.json: written by `rocm-perf plan --out`, kept in the run dir and read back by the harnesses.

export const PLAN_VERSION = 1;

const Seconds = z.number().nonnegative().describe('seconds from the start of the run');

export const PlanTargetSchema = z.strictObject({
  node: z.string().describe('The node whose queue holds the target.'),
  startSeconds: Seconds,
  finishSeconds: Seconds,
  buildSeconds: z.number().nonnegative().describe('Build term on that node: build_t / speed_n.'),
  exportSeconds: z
    .number()
    .nonnegative()
    .describe('Export term on that node: cache_t / (link_mbps_n × 10^6).'),
  deps: z.array(z.string()).describe('In-run dependencies (`target:` contexts).'),
  waitFor: z
    .array(z.string())
    .describe('What the queue runner waits for before starting: deps, plus the previous stage for `stages`.'),
});

export const PlanNodeSchema = z.strictObject({
  name: z.string(),
  builder: z.string(),
  linkMbps: z.number().positive(),
  speed: z.number().positive(),
  busySeconds: z.number().nonnegative(),
  idleSeconds: z.number().nonnegative(),
  dependencyWaitSeconds: z.number().nonnegative().describe('Idle while no target anywhere was ready.'),
  placementLossSeconds: z
    .number()
    .nonnegative()
    .describe('Idle while some target was ready but queued elsewhere.'),
});

export const PlanLowerBoundSchema = z.strictObject({
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
    })
    .default({ mode: 'cold', coldBuildFor: [] })
    .describe('The cost set the plan was made from (absent in plans made before warm costs: cold).'),
});

export type Plan = z.output<typeof PlanFileSchema>;
export type PlanTarget = z.output<typeof PlanTargetSchema>;

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}

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
    throw new ArtifactError(source, `not a valid plan: ${describeIssues(parsed.error.issues)}`, { hint });
  return parsed.data;
}
