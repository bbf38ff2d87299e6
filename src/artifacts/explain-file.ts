import { z } from 'zod';

// The "why" and "what it used" parts of data.json (docs/explain.md): why each target's first uncached step ran,
// what that cost in makespan, what every RUN step used, and the advisor's ranked actions. Pure schemas: the page
// bundle validates with them too. Every field that a builder or a run can fail to record is nullable, never 0.

const Seconds = z.number().finite().min(0);
const Bytes = z.number().finite().min(0);
const Count = z.number().int().min(0);

/** Where a step's resource figures came from. */
const UsageSourceSchema = z
  .enum(['buildkit', 'cgroup'])
  .describe(
    'buildkit: the provenance (mode=max) resourceUsage BuildKit itself sampled (cgroup v2 builders); cgroup: the step container’s cgroup, read by rocm-perf over the node link while the step ran.',
  );

const UsageFlagSchema = z
  .enum(['memory-near-limit', 'oom'])
  .describe(
    'memory-near-limit: the peak came within 10 % of the node’s memory; oom: the cgroup saw OOM events (kills).',
  );
export type UsageFlag = z.infer<typeof UsageFlagSchema>;

const UsageFiguresShape = {
  cpuSeconds: Seconds.nullable().describe('CPU time (user + system), seconds.'),
  memoryPeakBytes: Bytes.nullable().describe('Peak memory of the step container (its cgroup’s max usage).'),
  ioReadBytes: Bytes.nullable(),
  ioWriteBytes: Bytes.nullable(),
  pidsPeak: Count.nullable(),
  oomEvents: Count.nullable().describe(
    'OOM events (kills) the step’s cgroup counted; null when not readable.',
  ),
};

const StepUsageSchema = z.strictObject({
  vertex: z.string().describe('The step’s vertex digest, as the status stream and the trace name it.'),
  name: z.string().describe('The vertex name, e.g. `[3/4] RUN box-compile …`.'),
  source: UsageSourceSchema,
  ...UsageFiguresShape,
  flags: z.array(UsageFlagSchema),
});
export type StepUsage = z.infer<typeof StepUsageSchema>;

export const TargetUsageSchema = z.strictObject({
  ...UsageFiguresShape,
  steps: z.array(StepUsageSchema).describe('Every RUN (exec) step that ran (cached steps use nothing).'),
});
export type TargetUsage = z.infer<typeof TargetUsageSchema>;

export const NodeUsageSchema = z.strictObject({
  ...UsageFiguresShape,
  memoryBytes: Bytes.nullable().describe(
    'The node’s memory: fleet.yaml memory_gb, else MemTotal from its samples.',
  ),
});
export type NodeUsage = z.infer<typeof NodeUsageSchema>;

/** Why a target's first uncached step ran. Every cause names its old and new values; `unknown` never guesses. */
const MissCauseSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('build-arg'),
    name: z.string(),
    old: z.string().nullable(),
    new: z.string().nullable(),
  }),
  z.strictObject({
    kind: z.literal('input-image'),
    ref: z.string().describe('The tag or `target:`/`docker-image://` context as the bake file names it.'),
    old: z.string().nullable().describe('Digest in the run compared against.'),
    new: z.string().nullable(),
  }),
  z.strictObject({ kind: z.literal('instruction'), old: z.string(), new: z.string() }),
  z.strictObject({
    kind: z.literal('files'),
    instruction: z.string().describe('The COPY/ADD whose sources changed.'),
    added: z.array(z.string()),
    removed: z.array(z.string()),
    changed: z.array(z.string()),
    count: Count.describe('Paths added + removed + changed (the lists may be cut short).'),
  }),
  z.strictObject({
    kind: z.literal('cache-import-empty'),
    ref: z.string().describe('The cache-from ref.'),
    evidence: z.enum(['ref-missing', 'manifest-miss']),
  }),
  z.strictObject({
    kind: z.literal('builder-cache-lost'),
    builder: z.string(),
    evidence: z.string().describe('What showed it: a new builder instance, a pruned record.'),
  }),
  z.strictObject({ kind: z.literal('dependency-rebuilt'), targets: z.array(z.string()).min(1) }),
  z.strictObject({
    kind: z.literal('unknown'),
    missing: z
      .array(z.string())
      .min(1)
      .describe('The evidence that was missing, each with the setting that gives it.'),
  }),
]);
export type MissCause = z.infer<typeof MissCauseSchema>;

export const TargetWhySchema = z.strictObject({
  firstMiss: z
    .strictObject({ vertex: z.string(), name: z.string() })
    .nullable()
    .describe('The first step that was not cached; null when every step was (then cause is null too).'),
  cause: MissCauseSchema.nullable(),
  rebuiltAfter: z
    .array(z.string())
    .describe('Targets rebuilt because this one was (its dependants that missed).'),
  costSeconds: z
    .number()
    .finite()
    .nullable()
    .describe(
      'Makespan seconds this miss cost: the run replayed with the target (and what it made rebuild) cached, by diff’s counterfactual replay; null when it cannot be replayed.',
    ),
});
export type TargetWhy = z.infer<typeof TargetWhySchema>;

export const RunWhySchema = z.strictObject({
  against: z
    .string()
    .nullable()
    .describe(
      'Stamp of the run compared against (the previous run of the same lane, harness and arch, or --against).',
    ),
  notes: z
    .array(z.string())
    .describe('Evidence a builder did not record, each naming the setting that would give it.'),
});
export type RunWhy = z.infer<typeof RunWhySchema>;

export const AdviceSchema = z.strictObject({
  kind: z.enum(['volatile-input', 'moving-tag', 'memory-misfit', 'link-bound-export', 'double-cache-push']),
  action: z.string().describe('What to do, in one sentence.'),
  savingSeconds: z
    .number()
    .finite()
    .nullable()
    .describe(
      'Makespan saved, from a what-if replay of the run (never a rule of thumb); null when not replayable.',
    ),
  evidence: z.array(z.string()).min(1).describe('What in the run shows it: files, figures.'),
  targets: z.array(z.string()),
  nodes: z.array(z.string()),
});
export type Advice = z.infer<typeof AdviceSchema>;
