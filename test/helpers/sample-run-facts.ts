import { readFileSync } from 'node:fs';
import path from 'node:path';

// Facts about a recorded run dir (fixtures/runs/*), read straight from its own files with JSON.parse and a few lines
// of arithmetic, never with src/: tests that check the report on a shipped sample derive their expected figures here,
// so a re-recorded sample moves the expectation with it while a broken product still fails.

interface RunJson {
  measuredStartedAtMs: number;
  nodes: { name: string }[];
  targets: Record<string, { node: string }>;
  builderClocks?: { node: string; offsetMs: number }[];
  logs?: { file: string; sizeBytes: number }[];
  registryCachePatterns?: string[];
  sccachePrefix?: string;
  samples?: { intervalMs: number };
}

export function readRunJson(dir: string): RunJson {
  return JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')) as RunJson;
}

/** The size run.json recorded for a log slice it fetched (`logs[].sizeBytes`). */
export function recordedSliceBytes(dir: string, file: string): number {
  const slice = readRunJson(dir).logs?.find((log) => log.file === file);
  if (slice === undefined) throw new Error(`run.json in ${dir} records no slice ${file}`);
  return slice.sizeBytes;
}

/** `226446` → `226,446`, as the warnings write byte counts. */
export const withCommas = (n: number): string => n.toLocaleString('en-US');

/** The lines of a JSON-lines file that end in a newline (a cut last line is left out), parsed. */
function completeJsonLines<T>(file: string): T[] {
  const text = readFileSync(file, 'utf8');
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  return complete
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as T);
}

interface ZotLine {
  method?: string;
  path?: string;
  statusCode?: number;
}

/** `*`-globs (run.json's registryCachePatterns, `repo:tag`) → a test on a blob's repository (the part before `:`). */
function cacheRepositoryTest(patterns: readonly string[]): (repository: string) => boolean {
  const regExps = patterns.map((pattern) => {
    const repository = pattern.split(':')[0]!;
    const source = repository
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
      .join('.*');
    return new RegExp(`^${source}$`);
  });
  return (repository) => regExps.some((regExp) => regExp.test(repository));
}

/**
 * Blobs written to the cache repositories in a Zot log: the 201 of a finalising `PUT …/blobs/uploads/<uuid>?…digest=`
 * or of a monolithic `POST …/blobs/uploads/?digest=` (a cross-mount `?mount=` writes nothing new).
 */
export function countCacheBlobWrites(file: string, cachePatterns: readonly string[]): number {
  const isCache = cacheRepositoryTest(cachePatterns);
  let count = 0;
  for (const line of completeJsonLines<ZotLine>(file)) {
    if (line.statusCode !== 201 || line.path === undefined) continue;
    const put = /^\/v2\/(.+)\/blobs\/uploads\/[^/?]+\?(.*)$/.exec(line.path);
    const post = /^\/v2\/(.+)\/blobs\/uploads\/\?(.*)$/.exec(line.path);
    const match = line.method === 'PUT' ? put : line.method === 'POST' ? post : null;
    if (match === null) continue;
    const query = new URLSearchParams(match[2]);
    if (query.has('digest') && !query.has('mount') && isCache(match[1]!)) count += 1;
  }
  return count;
}

interface NginxLine {
  method?: string;
  uri?: string;
  status?: number;
}

/** sccache hits under the run's prefix: GET 200/206 of a key `/sccache/<prefix>/a/b/c/abc…` (not `.sccache_check`). */
export function countSccacheHits(file: string, prefix: string): number {
  const key = new RegExp(`^/sccache/${prefix}/([^/])/([^/])/([^/])/\\1\\2\\3[^/]+$`);
  return completeJsonLines<NginxLine>(file).filter(
    (line) =>
      line.method === 'GET' && (line.status === 200 || line.status === 206) && key.test(line.uri ?? ''),
  ).length;
}

interface JaegerSpan {
  spanID: string;
  operationName: string;
  references?: { refType: string; spanID: string }[];
  startTime: number;
  duration: number;
  tags?: { key: string; value: unknown }[];
}

interface JaegerDocument {
  data: { spans: JaegerSpan[] }[];
}

function readTraceSpans(dir: string, target: string): JaegerSpan[] {
  const trace = JSON.parse(readFileSync(path.join(dir, `trace-${target}.json`), 'utf8')) as JaegerDocument;
  return trace.data.flatMap((one) => one.spans);
}

/**
 * A one-target trace's build record, as `history inspect` dates it (Jaeger microseconds → ms): from the start of the
 * daemon's Control/Solve span that holds `create history record` to the start of that span (CompletedAt).
 */
function recordWindowMs(spans: readonly JaegerSpan[]): [number, number] {
  const record = spans.find((span) => span.operationName === 'create history record');
  const parentId = record?.references?.find((ref) => ref.refType === 'CHILD_OF')?.spanID;
  const solve = spans.find((span) => span.spanID === parentId);
  if (record === undefined || solve === undefined) throw new Error('no `create history record` in the trace');
  return [solve.startTime / 1000, record.startTime / 1000];
}

/**
 * The measured window on the workstation's clock: from run.json's measuredStartedAtMs to the last build record's end
 * (recordWindowMs) of any target's trace, each moved off its builder's clock by run.json's builderClocks offset.
 */
export function measuredWindowMs(dir: string): [number, number] {
  const run = readRunJson(dir);
  const offsets = new Map((run.builderClocks ?? []).map((clock) => [clock.node, clock.offsetMs]));
  let end = Number.NEGATIVE_INFINITY;
  for (const [target, { node }] of Object.entries(run.targets)) {
    end = Math.max(end, recordWindowMs(readTraceSpans(dir, target))[1] - (offsets.get(node) ?? 0));
  }
  return [run.measuredStartedAtMs, end];
}

/** Each node's samples.jsonl lines (complete ones), in file order: their timestamps. */
export function sampleTimesByNode(file: string): Map<string, number[]> {
  const byNode = new Map<string, number[]>();
  for (const line of completeJsonLines<{ node: string; tsMs: number }>(file)) {
    const times = byNode.get(line.node) ?? [];
    times.push(line.tsMs);
    byNode.set(line.node, times);
  }
  return byNode;
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/** The seconds a target's trace gives, rounded to ms as data.json holds them. */
export interface TraceFigures {
  totalSeconds: number;
  buildSeconds: number;
  /** total − build: the gap after the steps. */
  exportSeconds: number;
  /** The union of its upload requests' spans. */
  uploadSeconds: number;
  /** The rest of the gap. */
  setupExportSeconds: number;
  uploadBytes: number;
}

/**
 * From a target's Jaeger trace: total = its build record (recordWindowMs); build = the extent of its step spans (a `vertex`
 * tag, `load cache: …`, or a Dockerfile `[stage i/n] …` name; `cache request: …` is a lookup, not a step); upload = the
 * union of its HTTP PUT/POST/PATCH request spans, the innermost one of each request (a span with an HTTP child is
 * its wrapper).
 */
export function traceFigures(dir: string, target: string): TraceFigures {
  const spans = readTraceSpans(dir, target).map((span) => ({
    id: span.spanID,
    parent: span.references?.find((ref) => ref.refType === 'CHILD_OF')?.spanID,
    name: span.operationName,
    tags: new Map((span.tags ?? []).map((tag) => [tag.key, tag.value])),
    startMs: span.startTime / 1000,
    endMs: (span.startTime + span.duration) / 1000,
  }));
  type Span = (typeof spans)[number];
  const extentMs = (some: Span[]) =>
    Math.max(...some.map((s) => s.endMs)) - Math.min(...some.map((s) => s.startMs));
  const steps = spans.filter(
    (s) =>
      !s.name.startsWith('cache request: ') &&
      (s.tags.has('vertex') || s.name.startsWith('load cache: ') || /^\[[^\]]*\d+\/\d+\]\s/.test(s.name)),
  );
  const methodOf = (s: Span): string | undefined => {
    const method = s.tags.get('http.request.method') ?? s.tags.get('http.method');
    return typeof method === 'string' ? method.toUpperCase() : /^HTTP ([A-Z]+)$/.exec(s.name)?.[1];
  };
  const hasHttpChild = (s: Span) =>
    spans.some((child) => child.parent === s.id && methodOf(child) !== undefined);
  const uploads = spans
    .filter((s) => ['PUT', 'POST', 'PATCH'].includes(methodOf(s) ?? '') && !hasHttpChild(s))
    .sort((a, b) => a.startMs - b.startMs);
  let unionMs = 0;
  let reach = Number.NEGATIVE_INFINITY;
  for (const { startMs, endMs } of uploads) {
    unionMs += Math.max(0, endMs - Math.max(startMs, reach));
    reach = Math.max(reach, endMs);
  }
  const uploadBytes = uploads.reduce(
    (sum, s) =>
      sum +
      Number(
        s.tags.get('http.request_content_length') ?? s.tags.get('http.request.header.content-length') ?? 0,
      ),
    0,
  );
  const [recordStartMs, recordEndMs] = recordWindowMs(readTraceSpans(dir, target));
  const totalMs = recordEndMs - recordStartMs;
  const buildMs = extentMs(steps);
  // data.json rounds the gap and the upload to ms first and subtracts after, so its three parts add up.
  const exportSeconds = round3((totalMs - buildMs) / 1000);
  const uploadSeconds = round3(unionMs / 1000);
  return {
    totalSeconds: round3(totalMs / 1000),
    buildSeconds: round3(buildMs / 1000),
    exportSeconds,
    uploadSeconds,
    setupExportSeconds: round3(exportSeconds - uploadSeconds),
    uploadBytes,
  };
}
