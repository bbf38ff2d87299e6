import type { TraceStep } from '../types.js';
import type { TraceSpan } from './trace-span.js';

// Step (vertex) spans: BuildKit names them after the LLB vertex and sets a `vertex` attribute. Executed steps
// carry the vertex name, cache hits are `load cache: <name>`, and `cache request: <name>` spans are only
// cache-key lookups (not steps). Dockerfile vertex names look like `[linux/amd64 build  3/12] RUN make -j64`.

const loadCachePrefix = 'load cache: ';
const cacheRequestPrefix = 'cache request: ';
const dockerfileStep = /^\[([^\]]*?)\s*\d+\/\d+\]\s+([\s\S]+)$/;

export function isStepSpan(span: TraceSpan): boolean {
  if (span.name.startsWith(cacheRequestPrefix)) return false;
  return (
    span.attributes.has('vertex') || span.name.startsWith(loadCachePrefix) || dockerfileStep.test(span.name)
  );
}

export function toTraceStep(span: TraceSpan): TraceStep {
  const cached = span.name.startsWith(loadCachePrefix);
  const name = cached ? span.name.slice(loadCachePrefix.length) : span.name;
  const step: TraceStep = {
    name,
    startMs: span.startMs,
    endMs: span.endMs,
    cached,
    instruction: parseStepInstruction(name),
  };
  if (span.status === 'error') step.failed = true;
  return step;
}

/** `[build 3/12] RUN make -j64` → `RUN make -j64`; undefined for `[internal] …` and other vertices. */
function parseStepInstruction(name: string): string | undefined {
  return dockerfileStep.exec(name)?.[2]?.trim();
}

/** The Dockerfile stage of a step name: the last word before `i/n` (`[linux/arm64 build 2/5]` → `build`). */
export function parseStepStage(name: string): string | undefined {
  const match = dockerfileStep.exec(
    name.startsWith(loadCachePrefix) ? name.slice(loadCachePrefix.length) : name,
  );
  if (match === null) return undefined;
  const words = (match[1] ?? '').trim().split(/\s+/);
  return words[words.length - 1] || undefined;
}
