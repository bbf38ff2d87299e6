import { z } from 'zod';

// step-usage.jsonl: one JSON line per node per poll of its step containers' cgroups (docs/step-usage.md), written
// by the step-usage sampler during the measured run and read back by the report (artifacts/read-step-usage-file.ts,
// the one reader). Raw: each counter file's text as the node's kernel gave it; the parse is collect/cgroup's.

export const STEP_USAGE_VERSION = 1;

const CgroupReadSchema = z.strictObject({
  id: z
    .string()
    .min(1)
    .max(256)
    .describe(
      'The container cgroup’s directory name under the node’s step_cgroups (BuildKit’s container id).',
    ),
  files: z
    .record(z.string().regex(/^[a-z_]+\.[a-z_.]+$/), z.string().max(65_536))
    .describe(
      'Counter file name (cpuacct.usage, memory.peak, …) → its text. A file the kernel does not have is absent.',
    ),
  cmdlines: z
    .array(z.string().max(65_536))
    .max(4_096)
    .describe('The command line of each process in the cgroup (cgroup.procs), NULs and newlines as spaces.'),
});
export type CgroupRead = z.infer<typeof CgroupReadSchema>;

const StepUsageOkSchema = z.strictObject({
  version: z.literal(STEP_USAGE_VERSION),
  node: z.string(),
  tsMs: z.number().finite().describe('Workstation time when the poll’s answer arrived.'),
  ok: z.literal(true),
  cgroup: z.enum(['v1', 'v2']),
  /** False when the node's step_cgroups directory did not exist at this poll (no step had run yet, or a wrong path). */
  present: z.boolean(),
  groups: z.array(CgroupReadSchema),
});

const StepUsageGapSchema = z.strictObject({
  version: z.literal(STEP_USAGE_VERSION),
  node: z.string(),
  tsMs: z.number().finite(),
  ok: z.literal(false),
  error: z.string(),
});

export const StepUsageSampleSchema = z.discriminatedUnion('ok', [StepUsageOkSchema, StepUsageGapSchema]);
export type StepUsageSample = z.infer<typeof StepUsageSampleSchema>;
export type StepUsagePoll = z.infer<typeof StepUsageOkSchema>;
