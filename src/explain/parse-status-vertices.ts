import { z } from 'zod';

// A target's rawjson status stream (status-<target>.jsonl, bake --progress=rawjson) → its vertices in the order they
// started, with BuildKit's own `cached` flag, and the cache imports that failed. Pure. Real streams of BuildKit
// v0.32.2 + buildx v0.36.1 are in test/fixtures/buildkit-explain/ (README there).

export interface StatusVertex {
  digest: string;
  name: string;
  /** Any update said `cached: true`. */
  cached: boolean;
  /** RFC 3339 start, as BuildKit wrote it; undefined when the vertex never started. */
  started: string | undefined;
  /** The Dockerfile step `[…n/m] INSTR`: its label's words (target and/or stage), n, and the instruction text. */
  step: { label: string[]; index: number; instruction: string } | undefined;
  error: string | undefined;
}

interface CacheImportFailure {
  ref: string;
  error: string;
}

export interface StatusVertices {
  vertices: StatusVertex[];
  importFailures: CacheImportFailure[];
  /** Lines that were not a status object (a truncated tail): counted, never guessed at. */
  skippedLines: number;
}

const VertexSchema = z.looseObject({
  digest: z.string(),
  name: z.string().optional(),
  cached: z.boolean().optional(),
  started: z.string().optional(),
  error: z.string().optional(),
});
const StatusLineSchema = z.looseObject({ vertexes: z.array(z.unknown()).nullish() });

const STEP_NAME = /^\[((?:[^\]\s]+ )*)(\d+)\/(\d+)\] (.*)$/s;
const IMPORT_NAME = /^(?:\[[^\]]+\] )?importing cache manifest from (\S+)$/;

function toStep(name: string): StatusVertex['step'] {
  const m = STEP_NAME.exec(name);
  if (!m) return undefined;
  return { label: m[1]!.trim().split(' ').filter(Boolean), index: Number(m[2]), instruction: m[4]! };
}

export function parseStatusVertices(text: string): StatusVertices {
  const byDigest = new Map<string, StatusVertex>();
  let skippedLines = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      skippedLines += 1;
      continue;
    }
    const status = StatusLineSchema.safeParse(raw);
    if (!status.success) {
      skippedLines += 1;
      continue;
    }
    for (const item of status.data.vertexes ?? []) {
      const parsed = VertexSchema.safeParse(item);
      if (!parsed.success) continue;
      const v = parsed.data;
      const seen = byDigest.get(v.digest);
      const name = v.name ?? seen?.name ?? '';
      byDigest.set(v.digest, {
        digest: v.digest,
        name,
        cached: (seen?.cached ?? false) || v.cached === true,
        started: seen?.started ?? v.started,
        step: toStep(name),
        error: v.error ?? seen?.error,
      });
    }
  }
  const vertices = [...byDigest.values()].sort(compareStarts);
  const importFailures = vertices.flatMap((v) => {
    const m = IMPORT_NAME.exec(v.name);
    return m && v.error !== undefined && v.error !== '' ? [{ ref: m[1]!, error: v.error }] : [];
  });
  return { vertices, importFailures, skippedLines };
}

/** Started first first (RFC 3339 with the same zone compares as text after normalising the fraction); unstarted last. */
function compareStarts(a: StatusVertex, b: StatusVertex): number {
  const ta = a.started === undefined ? Infinity : Date.parse(a.started);
  const tb = b.started === undefined ? Infinity : Date.parse(b.started);
  if (ta !== tb) return ta - tb;
  const fa = fraction(a.started);
  const fb = fraction(b.started);
  return fa !== fb ? fa - fb : (a.step?.index ?? 0) - (b.step?.index ?? 0);
}

/** Sub-millisecond part of an RFC 3339 time (Date.parse keeps milliseconds only). */
function fraction(time: string | undefined): number {
  const m = time === undefined ? null : /\.\d{3}(\d*)/.exec(time);
  return m && m[1] ? Number(`0.${m[1]}`) : 0;
}

/**
 * The target's own Dockerfile steps: a step whose label names another target of the run (`[lib 1/3]` in app's
 * stream) is that target's. buildx may label a vertex both bakes used with either name, so where the provenance
 * maps a digest to its Dockerfile the caller decides by that instead (`ownDigests`).
 */
export function listOwnSteps(
  status: StatusVertices,
  options: { otherTargets: ReadonlySet<string>; ownDigests?: ReadonlySet<string> },
): StatusVertex[] {
  return status.vertices.filter((v) => {
    if (!v.step) return false;
    if (options.ownDigests) return options.ownDigests.has(v.digest);
    return !v.step.label.some((word) => options.otherTargets.has(word));
  });
}

/** The first own step that ran (not cached), by start time. */
export function findFirstMiss(steps: readonly StatusVertex[]): StatusVertex | undefined {
  return steps.find((v) => !v.cached && v.started !== undefined);
}
