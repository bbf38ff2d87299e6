import type { TargetTrace, TraceStep, TraceUpload } from '../collect/index.js';
import { formatBytes, formatDuration } from '../shared/format-units.js';
import type { Band, Phase } from '../artifacts/index.js';
import { mergeIntervals, containsPoint, type Interval } from '../shared/intervals.js';

// Cuts one target's build record into phase bands: steps (its own steps), upload (HTTP PUT/POST spans) and
// setup/export (the rest: before the first step, after the last, and gaps). Steps win over uploads where they
// overlap, uploads over setup/export. Each band lists what it covers, for the chart's hover.

const UPLOAD_METHODS = new Set(['PUT', 'POST', 'PATCH']);

export function isUploadSpan(upload: TraceUpload): boolean {
  return UPLOAD_METHODS.has(upload.method.toUpperCase());
}

export function buildBands(trace: TargetTrace, node: string): Band[] {
  const record: Interval = [trace.startMs, trace.endMs];
  if (!(record[1] > record[0])) return [];
  const joinGapMs = Math.max(1000, (record[1] - record[0]) * 0.005);
  const steps = mergeIntervals(
    trace.steps.map((s) => clampTo([s.startMs, s.endMs], record)),
    joinGapMs,
  );
  const uploadSpans = trace.uploads.filter(isUploadSpan);
  const uploads = mergeIntervals(
    uploadSpans.map((u) => clampTo([u.startMs, u.endMs], record)),
    joinGapMs,
  );
  const cuts = [...new Set([record[0], record[1], ...steps.flat(), ...uploads.flat()])].sort((a, b) => a - b);
  const segments: { phase: Phase; startMs: number; endMs: number }[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const [a, b] = [cuts[i]!, cuts[i + 1]!];
    const phase = classify({ tMs: (a + b) / 2, steps, uploads, buildEndMs: trace.buildEndMs });
    const last = segments[segments.length - 1];
    if (last && last.phase === phase) last.endMs = b;
    else segments.push({ phase, startMs: a, endMs: b });
  }
  return segments.map((s) => ({ target: trace.target, node, ...s, ...describe(s, trace, uploadSpans) }));
}

function clampTo([a, b]: Interval, [from, to]: Interval): Interval {
  return [Math.max(a, from), Math.min(b, to)];
}

interface ClassifyOptions {
  tMs: number;
  steps: Interval[];
  uploads: Interval[];
  buildEndMs: number | undefined;
}

function classify({ tMs, steps, uploads, buildEndMs }: ClassifyOptions): Phase {
  if (containsPoint(steps, tMs)) return 'steps';
  if (containsPoint(uploads, tMs)) return 'upload';
  return buildEndMs !== undefined && tMs >= buildEndMs ? 'export' : 'setup';
}

function overlaps(a: { startMs: number; endMs: number }, b: { startMs: number; endMs: number }): boolean {
  return a.startMs < b.endMs && b.startMs < a.endMs;
}

function describe(
  band: { phase: Phase; startMs: number; endMs: number },
  trace: TargetTrace,
  uploads: readonly TraceUpload[],
): Pick<Band, 'commands' | 'bytes'> {
  if (band.phase === 'steps') {
    const covered = trace.steps.filter(
      (s) =>
        overlaps(s, band) || (s.startMs === s.endMs && s.startMs >= band.startMs && s.startMs < band.endMs),
    );
    return { commands: covered.map(describeStep), bytes: null };
  }
  if (band.phase === 'upload') {
    const covered = uploads.filter((u) => overlaps(u, band));
    const known = covered.filter((u) => u.bytes !== null);
    return {
      commands: summariseUploads(covered),
      bytes: known.length ? known.reduce((s, u) => s + (u.bytes ?? 0), 0) : null,
    };
  }
  return { commands: [], bytes: null };
}

function describeStep(step: TraceStep): string {
  const what = step.instruction ?? step.name;
  return `${what} (${step.cached ? 'cached' : formatDuration((step.endMs - step.startMs) / 1000)})`;
}

/** One line per repository and kind: `PUT 12× cache rocm/cache (6.4 GB)`, at most 12 lines. */
function summariseUploads(uploads: readonly TraceUpload[]): string[] {
  const groups = new Map<string, { count: number; bytes: number; unknown: number }>();
  for (const upload of uploads) {
    const key = `${upload.method.toUpperCase()} ${upload.kind} ${repositoryOf(upload.url)}`;
    const group = groups.get(key) ?? { count: 0, bytes: 0, unknown: 0 };
    group.count += 1;
    if (upload.bytes === null) group.unknown += 1;
    else group.bytes += upload.bytes;
    groups.set(key, group);
  }
  const lines = [...groups.entries()].map(([key, g]) => {
    const size =
      g.unknown === g.count
        ? 'size not recorded'
        : formatBytes(g.bytes) + (g.unknown ? `, ${g.unknown} unsized` : '');
    return `${key.replace(' ', ` ${g.count}× `)} (${size})`;
  });
  return lines.length > 12 ? [...lines.slice(0, 11), `… ${lines.length - 11} more`] : lines;
}

function repositoryOf(url: string): string {
  const match = /\/v2\/(.+?)\/(?:blobs|manifests)\//.exec(url);
  return match?.[1] ?? url.replace(/^[a-z]+:\/\/[^/]+/i, '').split('?')[0] ?? url;
}
