// One build step: a status-stream vertex plus the span BuildKit records for it (the step name when it ran,
// `load cache: <name>` when it came from the cache; buildkit.md §4.2).
import { nowMs, type SpanHandle } from './spans.js';
import { toVertexDigest, type BuildEnv, type TargetRun } from './build-context.js';

export interface RunVertexOptions {
  name: string;
  cached?: boolean;
  /** Also record a `cache request: <name>` span (source ops: FROM, contexts). */
  cacheRequest?: boolean;
  /** Counted in the record's step totals (internal vertexes are too). */
  parent?: SpanHandle;
  inputs?: string[];
  work?: (span: SpanHandle, digest: string) => Promise<void>;
}

export async function runVertex(env: BuildEnv, run: TargetRun, options: RunVertexOptions): Promise<string> {
  const digest = toVertexDigest(run.name, options.name, run.cost.revision);
  const parent = options.parent ?? run.solveSpan;
  run.steps.total++;
  if (options.cacheRequest) {
    const request = env.recorder.startSpan({
      name: `cache request: ${options.name}`,
      parent,
      service: 'buildkitd',
      attrs: { vertex: digest },
    });
    request.end({ atMs: nowMs() + 1 });
  }
  const startedMs = nowMs();
  env.progress.vertex({ digest, inputs: options.inputs ?? [], name: options.name, startedMs });
  const spanName = options.cached ? `load cache: ${options.name}` : options.name;
  const span = env.recorder.startSpan({
    name: spanName,
    parent,
    service: 'buildkitd',
    attrs: { vertex: digest },
    startMs: startedMs,
  });
  try {
    await options.work?.(span, digest);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    span.end({ error: message });
    env.progress.vertex({
      digest,
      inputs: options.inputs ?? [],
      name: options.name,
      startedMs,
      completedMs: nowMs(),
      error: message,
    });
    throw error;
  }
  const completedMs = nowMs();
  span.end({ atMs: completedMs });
  run.steps.completed++;
  if (options.cached) run.steps.cached++;
  env.progress.vertex({
    digest,
    inputs: options.inputs ?? [],
    name: options.name,
    startedMs,
    completedMs,
    cached: options.cached ?? false,
  });
  return digest;
}
