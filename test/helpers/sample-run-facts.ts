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
export function completeJsonLines<T>(file: string): T[] {
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
 * The measured window on the workstation's clock: from run.json's measuredStartedAtMs to the last span end of any
 * target's trace (Jaeger, microseconds), each moved off its builder's clock by run.json's builderClocks offset.
 */
export function measuredWindowMs(dir: string): [number, number] {
  const run = readRunJson(dir);
  const offsets = new Map((run.builderClocks ?? []).map((clock) => [clock.node, clock.offsetMs]));
  let end = Number.NEGATIVE_INFINITY;
  for (const [target, { node }] of Object.entries(run.targets)) {
    for (const span of readTraceSpans(dir, target))
      end = Math.max(end, (span.startTime + span.duration) / 1000 - (offsets.get(node) ?? 0));
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
