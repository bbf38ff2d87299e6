import { z } from 'zod';

// BuildKit's own per-step resource samples from a target's metadata file (bake --metadata-file, key
// `buildx.build.provenance`, provenance mode=max), held to BuildKit v0.32.2's Go types: executor/resources/types
// (Samples, Sample, CPUStat, MemoryStat, IOStat, PIDsStat, SysSample) and solver/llbsolver/provenance/types
// (BuildConfig.llbDefinition[].resourceUsage, digestMapping; BuildKitMetadata.sysUsage). SLSA v0.2 keeps them
// under `buildConfig` and `metadata["https://mobyproject.org/buildkit@v1#metadata"]`, SLSA v1 under
// `buildDefinition.internalParameters.buildConfig` and `runDetails.metadata.buildkit_metadata`. BuildKit samples
// only where /sys/fs/cgroup is cgroup v2. Pure. Unknown keys pass (newer BuildKit adds fields); a known key with a
// wrong type fails.

const Uint = z.number().int().min(0);

const BuildkitSampleSchema = z.object({
  timestamp: z.string(),
  cpuStat: z.object({ usageNanos: Uint.optional() }).optional(),
  memoryStat: z
    .object({ peak: Uint.optional(), oomKillEvents: Uint.optional(), oomEvents: Uint.optional() })
    .optional(),
  ioStat: z.object({ readBytes: Uint.optional(), writeBytes: Uint.optional() }).optional(),
  pidsStat: z.object({ current: Uint.optional() }).optional(),
});

const BuildkitSamplesSchema = z.object({ samples: z.array(BuildkitSampleSchema).optional() });

const BuildConfigSchema = z.object({
  llbDefinition: z
    .array(z.object({ id: z.string().optional(), resourceUsage: BuildkitSamplesSchema.optional() }))
    .optional(),
  digestMapping: z.record(z.string(), z.string()).optional(),
});

const BuildkitMetadataSchema = z.object({
  sysUsage: z
    .array(z.object({ memoryStat: z.object({ total: Uint.nullable().optional() }).optional() }))
    .optional(),
});

const PredicateSchema = z.object({
  buildConfig: BuildConfigSchema.optional(),
  metadata: z
    .object({ 'https://mobyproject.org/buildkit@v1#metadata': BuildkitMetadataSchema.optional() })
    .optional(),
  buildDefinition: z
    .object({ internalParameters: z.object({ buildConfig: BuildConfigSchema.optional() }).optional() })
    .optional(),
  runDetails: z
    .object({ metadata: z.object({ buildkit_metadata: BuildkitMetadataSchema.optional() }).optional() })
    .optional(),
});

interface ProvenanceStepUsage {
  cpuSeconds: number | null;
  memoryPeakBytes: number | null;
  ioReadBytes: number | null;
  ioWriteBytes: number | null;
  pidsPeak: number | null;
  oomEvents: number | null;
}

export interface ProvenanceUsage {
  /** Vertex digest (the status stream's) → the step's figures, for every step BuildKit sampled. */
  steps: Map<string, ProvenanceStepUsage>;
  /** The builder's MemTotal from sysUsage, when sampled. */
  memoryTotalBytes: number | null;
}

export type ProvenanceUsageResult =
  { ok: true; usage: ProvenanceUsage | undefined } | { ok: false; key: string; message: string };

const lastOf = (values: (number | undefined)[]): number | null => {
  const present = values.filter((value): value is number => value !== undefined);
  return present.length === 0 ? null : (present[present.length - 1] ?? null);
};
const maxOf = (values: (number | undefined)[]): number | null => {
  const present = values.filter((value): value is number => value !== undefined);
  return present.length === 0 ? null : Math.max(...present);
};

/** Counters (CPU, IO) are cumulative: the last sample; peaks and current values: the largest. */
function toStepUsage(samples: z.infer<typeof BuildkitSampleSchema>[]): ProvenanceStepUsage {
  const cpuNs = lastOf(samples.map((s) => s.cpuStat?.usageNanos));
  return {
    cpuSeconds: cpuNs === null ? null : cpuNs / 1e9,
    memoryPeakBytes: maxOf(samples.map((s) => s.memoryStat?.peak)),
    ioReadBytes: lastOf(samples.map((s) => s.ioStat?.readBytes)),
    ioWriteBytes: lastOf(samples.map((s) => s.ioStat?.writeBytes)),
    pidsPeak: maxOf(samples.map((s) => s.pidsStat?.current)),
    oomEvents: maxOf(samples.map((s) => s.memoryStat?.oomKillEvents ?? (s.memoryStat ? 0 : undefined))),
  };
}

/**
 * The metadata file's JSON (already parsed) → BuildKit's step usage; `usage` undefined when the file holds no
 * provenance or no step was sampled (mode=min, a cgroup v1 builder). A malformed provenance is `ok: false` with the
 * key at fault.
 */
export function parseProvenanceUsage(metadata: unknown): ProvenanceUsageResult {
  if (typeof metadata !== 'object' || metadata === null) return { ok: true, usage: undefined };
  const raw = (metadata as Record<string, unknown>)['buildx.build.provenance'];
  if (raw === undefined) return { ok: true, usage: undefined };
  const parsed = PredicateSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      key: ['buildx.build.provenance', ...(issue?.path ?? [])].join('.'),
      message: issue?.message ?? 'invalid',
    };
  }
  const predicate = parsed.data;
  const config = predicate.buildConfig ?? predicate.buildDefinition?.internalParameters?.buildConfig;
  const meta =
    predicate.metadata?.['https://mobyproject.org/buildkit@v1#metadata'] ??
    predicate.runDetails?.metadata?.buildkit_metadata;
  const byStepId = new Map<string, ProvenanceStepUsage>();
  for (const step of config?.llbDefinition ?? []) {
    const samples = step.resourceUsage?.samples ?? [];
    if (step.id !== undefined && samples.length > 0) byStepId.set(step.id, toStepUsage(samples));
  }
  const steps = new Map<string, ProvenanceStepUsage>();
  for (const [vertex, stepId] of Object.entries(config?.digestMapping ?? {})) {
    const usage = byStepId.get(stepId);
    if (usage) steps.set(vertex, usage);
  }
  if (steps.size === 0) return { ok: true, usage: undefined };
  const totals = (meta?.sysUsage ?? []).map((sample) => sample.memoryStat?.total ?? undefined);
  return { ok: true, usage: { steps, memoryTotalBytes: maxOf(totals) } };
}
