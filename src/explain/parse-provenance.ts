import { z } from 'zod';

// The SLSA v0.2 provenance BuildKit attaches in mode=max, as bake's metadata file holds it under
// `buildx.build.provenance` (meta-<target>.json). Pure. What each part gives (docs/explain.md):
// - invocation.parameters.args: build args (`build-arg:NAME`) and named contexts (`context:NAME`), in min and max;
// - materials: every input image with the digest it resolved to, in min and max;
// - buildConfig (max only): the LLB, one op per step, and `digestMapping` from the status stream's vertex digest to
//   the step id (the join between the stream and the LLB);
// - metadata.…#metadata.source (max only): each Dockerfile's text and the lines of each step.
// Held to real output of BuildKit v0.32.2 + buildx v0.36.1 (test/fixtures/buildkit-explain/).

const CopySchema = z.looseObject({ src: z.string().optional(), dest: z.string().optional() });
const OpSchema = z.looseObject({
  source: z
    .looseObject({ identifier: z.string(), attrs: z.record(z.string(), z.string()).optional() })
    .optional(),
  exec: z
    .looseObject({
      meta: z
        .looseObject({ args: z.array(z.string()).optional(), env: z.array(z.string()).nullish() })
        .optional(),
    })
    .optional(),
  file: z
    .looseObject({
      actions: z
        .array(
          z.looseObject({
            input: z.number().optional(),
            secondaryInput: z.number().optional(),
            Action: z.looseObject({ copy: CopySchema.optional() }).optional(),
          }),
        )
        .optional(),
    })
    .optional(),
});
const LlbStepSchema = z.looseObject({
  id: z.string(),
  op: z.looseObject({ Op: OpSchema.nullish() }).optional(),
  inputs: z.array(z.string()).optional(),
});
const LocationSchema = z.looseObject({
  sourceIndex: z.number().int().optional(),
  ranges: z
    .array(
      z.looseObject({
        start: z.looseObject({ line: z.number().int().optional() }).optional(),
        end: z.looseObject({ line: z.number().int().optional() }).optional(),
      }),
    )
    .optional(),
});
const ProvenanceSchema = z.looseObject({
  materials: z
    .array(z.looseObject({ uri: z.string(), digest: z.record(z.string(), z.string()).optional() }))
    .nullish(),
  invocation: z
    .looseObject({
      configSource: z.looseObject({ entryPoint: z.string().optional() }).optional(),
      parameters: z.looseObject({ args: z.record(z.string(), z.string()).nullish() }).optional(),
    })
    .optional(),
  buildConfig: z
    .looseObject({
      llbDefinition: z.array(LlbStepSchema).optional(),
      digestMapping: z.record(z.string(), z.string()).optional(),
    })
    .nullish(),
  metadata: z
    .looseObject({
      'https://mobyproject.org/buildkit@v1#metadata': z
        .looseObject({
          source: z
            .looseObject({
              locations: z
                .record(z.string(), z.looseObject({ locations: z.array(LocationSchema).optional() }))
                .optional(),
              infos: z.array(z.looseObject({ filename: z.string(), data: z.string().optional() })).optional(),
            })
            .optional(),
        })
        .optional(),
    })
    .optional(),
});

export interface LlbStep {
  id: string;
  kind: 'source' | 'exec' | 'file' | 'other';
  /** source ops: `docker-image://…`, `local://context`; followpaths of a local source. */
  identifier?: string;
  followPaths?: string[];
  /** exec ops: `NAME=value` pairs. */
  env?: string[];
  /** file ops: copy sources. */
  copySources?: string[];
  inputs: string[];
  /** The Dockerfile and line this step came from. */
  location?: { file: string; line: number; text: string };
}

export interface Provenance {
  /** `build-arg:NAME` → value, from invocation.parameters.args. */
  buildArgs: Record<string, string>;
  /** `context:NAME` → value (`docker-image://…`, `target:…` becomes `input:…`). */
  contexts: Record<string, string>;
  /** Image ref (`host/repo:tag`) → digest, from materials. */
  materials: Record<string, string>;
  /** The Dockerfile the target names (configSource.entryPoint). */
  entryPoint: string | undefined;
  /** Max mode only: the LLB by step id and vertex digest → step id; undefined in min mode. */
  llb: { steps: Map<string, LlbStep>; digestToStep: Map<string, string> } | undefined;
}

/** `pkg:docker/127.0.0.1%3A35111/rocm/base@gfx1201?platform=…` → `127.0.0.1:35111/rocm/base:gfx1201`. */
function toMaterialRef(uri: string): string | undefined {
  const m = /^pkg:docker\/([^?]+)/.exec(uri);
  if (!m) return undefined;
  const decoded = decodeURIComponent(m[1]!);
  const at = decoded.lastIndexOf('@');
  if (at < 0) return decoded;
  const version = decoded.slice(at + 1);
  return version.startsWith('sha256:') ? decoded : `${decoded.slice(0, at)}:${version}`;
}

function decodeBase64(text: string | undefined): string | undefined {
  return text === undefined ? undefined : Buffer.from(text, 'base64').toString('utf8');
}

function toLlbStep(
  step: z.infer<typeof LlbStepSchema>,
  locate: (id: string) => LlbStep['location'],
): LlbStep {
  const op = step.op?.Op ?? undefined;
  const base = { id: step.id, inputs: (step.inputs ?? []).map((input) => input.replace(/:\d+$/, '')) };
  const location = locate(step.id);
  const at = location ? { location } : {};
  if (op?.source) {
    const follow = op.source.attrs?.['local.followpaths'];
    let followPaths: string[] | undefined;
    try {
      const parsed: unknown = follow === undefined ? undefined : JSON.parse(follow);
      followPaths = Array.isArray(parsed)
        ? parsed.filter((p): p is string => typeof p === 'string')
        : undefined;
    } catch {
      followPaths = undefined;
    }
    return {
      ...base,
      ...at,
      kind: 'source',
      identifier: op.source.identifier,
      ...(followPaths ? { followPaths } : {}),
    };
  }
  if (op?.exec) return { ...base, ...at, kind: 'exec', env: op.exec.meta?.env ?? [] };
  if (op?.file) {
    const copySources = (op.file.actions ?? []).flatMap((a) =>
      a.Action?.copy?.src ? [a.Action.copy.src] : [],
    );
    return { ...base, ...at, kind: 'file', copySources };
  }
  return { ...base, ...at, kind: 'other' };
}

/**
 * SLSA v1 (what BuildKit ≥ v0.28.0 stores in the build record: provenance-<target>.json, docs/cache-debug.md) in
 * v0.2's places: request.args, configSource.path, resolvedDependencies, internalParameters.buildConfig and
 * runDetails.metadata.buildkit_metadata carry what invocation, materials, buildConfig and the #metadata key do.
 * Anything else is returned as it is (SLSA v0.2 already).
 */
const SlsaV1Schema = z.looseObject({
  buildDefinition: z.looseObject({
    externalParameters: z
      .looseObject({
        configSource: z.looseObject({ path: z.string().optional() }).optional(),
        request: z.looseObject({ args: z.record(z.string(), z.string()).nullish() }).optional(),
      })
      .optional(),
    internalParameters: z.looseObject({ buildConfig: z.unknown().optional() }).optional(),
    resolvedDependencies: z.array(z.unknown()).nullish(),
  }),
  runDetails: z
    .looseObject({ metadata: z.looseObject({ buildkit_metadata: z.unknown().optional() }).optional() })
    .optional(),
});

export function fromSlsaV1(raw: unknown): unknown {
  const v1 = SlsaV1Schema.safeParse(raw);
  if (!v1.success) return raw;
  const { buildDefinition: def, runDetails } = v1.data;
  return {
    materials: def.resolvedDependencies ?? [],
    invocation: {
      configSource: { entryPoint: def.externalParameters?.configSource?.path },
      parameters: { args: def.externalParameters?.request?.args ?? {} },
    },
    buildConfig: def.internalParameters?.buildConfig,
    metadata: { 'https://mobyproject.org/buildkit@v1#metadata': runDetails?.metadata?.buildkit_metadata },
  };
}

/**
 * One target's provenance (the value of `buildx.build.provenance`, SLSA v0.2, or a build record's SLSA v1
 * predicate); throws the zod error on a wrong shape.
 */
export function parseProvenance(raw: unknown): Provenance {
  const p = ProvenanceSchema.parse(fromSlsaV1(raw));
  const args = p.invocation?.parameters?.args ?? {};
  const pick = (prefix: string) =>
    Object.fromEntries(
      Object.entries(args)
        .filter(([key]) => key.startsWith(prefix))
        .map(([key, value]) => [key.slice(prefix.length), value]),
    );
  const materials: Record<string, string> = {};
  for (const material of p.materials ?? []) {
    const ref = toMaterialRef(material.uri);
    const sha = material.digest?.['sha256'];
    if (ref !== undefined && sha !== undefined) materials[ref] = `sha256:${sha}`;
  }
  const source = p.metadata?.['https://mobyproject.org/buildkit@v1#metadata']?.source;
  const files = (source?.infos ?? []).map((info) => ({
    filename: info.filename,
    lines: (decodeBase64(info.data) ?? '').split('\n'),
  }));
  const locate = (id: string): LlbStep['location'] => {
    const first = source?.locations?.[id]?.locations?.[0];
    const line = first?.ranges?.[0]?.start?.line;
    const end = Math.max(line ?? 0, first?.ranges?.[0]?.end?.line ?? 0);
    const file = files[first?.sourceIndex ?? 0];
    if (!first || line === undefined || !file) return undefined;
    // A continued instruction (`RUN a \` …) spans lines start..end: one text, lines joined.
    return { file: file.filename, line, text: file.lines.slice(line - 1, end).join('\n') };
  };
  const config = p.buildConfig ?? undefined;
  const llb =
    config?.llbDefinition && config.digestMapping
      ? {
          steps: new Map(config.llbDefinition.map((step) => [step.id, toLlbStep(step, locate)])),
          digestToStep: new Map(Object.entries(config.digestMapping)),
        }
      : undefined;
  return {
    buildArgs: pick('build-arg:'),
    contexts: pick('context:'),
    materials,
    entryPoint: p.invocation?.configSource?.entryPoint,
    llb,
  };
}

/** The steps `id` depends on, itself included (the LLB is a DAG; inputs name step ids). */
export function listAncestors(llb: NonNullable<Provenance['llb']>, id: string): LlbStep[] {
  const seen = new Set<string>();
  const out: LlbStep[] = [];
  const stack = [id];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    const step = llb.steps.get(next);
    if (!step) continue;
    out.push(step);
    stack.push(...step.inputs);
  }
  return out;
}
