// A builder whose wall clock is off, on real BuildKit: buildkitd is Go and reads the clock through the vDSO, past
// libfaketime, so the box moves what real buildx reports of that builder instead. This is the docker CLI's buildx
// plugin when a builder is skewed (start-real-engine.ts installs it): it runs the pinned buildx unchanged and, for a
// command naming a skewed builder (`--builder <name>`), moves by the skew every time the builder stamped:
//   - `history inspect|ls` JSON: every RFC 3339 string (StartedAt, CompletedAt, created_at, completed_at);
//   - `history trace` (Jaeger JSON, µs): the spans of `buildkitd` and their logs; buildx's own spans keep the
//     workstation's clock, as they would (buildx sends them from the workstation);
//   - bake's `--progress=rawjson` stream on stderr, line by line as it comes: vertexes, statuses and logs, but the
//     vertices buildx makes itself ("[internal] load local bake definitions", "resolving provenance …").
// The zero time (0001-01-01) stays. Whole seconds only, so the fractional digits BuildKit wrote are kept as they are.
// argv: <real buildx> <skews: JSON {builder: seconds}> <buildx args…>. Exit code and signals pass through.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { createInterface } from 'node:readline';

const [realBuildx = '', skewsJson = '{}', ...args] = process.argv.slice(2);
const skews = JSON.parse(skewsJson) as Record<string, number>;
const builderAt = args.findIndex((arg) => arg === '--builder' || arg.startsWith('--builder='));
const builder =
  builderAt < 0 ? process.env.BUILDX_BUILDER : (args[builderAt]!.split('=')[1] ?? args[builderAt + 1]);
const seconds = skews[builder ?? ''] ?? 0;
const command = args.find((arg) => arg !== 'buildx' && !arg.startsWith('-'));
const shifted = seconds !== 0 && (command === 'history' || command === 'bake');

const rfc3339 = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
/** An RFC 3339 UTC time moved by the skew; anything else unchanged. */
function shiftTime(value: string): string {
  const match = rfc3339.exec(value);
  if (!match || match[3] !== 'Z' || match[1]! < '1971') return value;
  const moved = new Date(Date.parse(`${match[1]}Z`) + seconds * 1000).toISOString().slice(0, 19);
  return `${moved}${match[2] ?? ''}Z`;
}

function shiftStrings(value: unknown): unknown {
  if (typeof value === 'string') return shiftTime(value);
  if (Array.isArray(value)) return value.map(shiftStrings);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shiftStrings(inner)]));
  return value;
}

interface JaegerSpan {
  processID?: string;
  startTime?: number;
  logs?: { timestamp?: number }[];
}
interface JaegerTrace {
  spans?: JaegerSpan[];
  processes?: Record<string, { serviceName?: string }>;
}

function shiftTrace(document: { data: JaegerTrace[] }): void {
  for (const trace of document.data)
    for (const span of trace.spans ?? []) {
      if (trace.processes?.[span.processID ?? '']?.serviceName !== 'buildkitd') continue;
      if (typeof span.startTime === 'number') span.startTime += seconds * 1e6;
      for (const log of span.logs ?? [])
        if (typeof log.timestamp === 'number') log.timestamp += seconds * 1e6;
    }
}

/** `history …` stdout: one JSON document (inspect, trace) or JSON lines (ls); other text as it is. */
function shiftHistoryOutput(text: string): string {
  try {
    const document = JSON.parse(text) as unknown;
    if (
      document !== null &&
      typeof document === 'object' &&
      Array.isArray((document as { data?: unknown }).data)
    ) {
      shiftTrace(document as { data: JaegerTrace[] });
      return `${JSON.stringify(document, null, 2)}\n`;
    }
    return `${JSON.stringify(shiftStrings(document), null, 2)}\n`;
  } catch {
    return text.replace(/^\{.*\}$/gm, (line) => JSON.stringify(shiftStrings(JSON.parse(line))));
  }
}

const localVertexNames =
  /^(\[internal\] load local bake definitions|resolving provenance for metadata file)$/;
const localVertices = new Set<string>();
type StatusItem = { digest?: string; vertex?: string; name?: string };

/** One rawjson status line: every item the builder stamped, moved; buildx's own vertices (and their items) kept. */
function shiftStatusLine(line: string): string {
  let status: Record<string, StatusItem[] | undefined>;
  try {
    status = JSON.parse(line) as typeof status;
  } catch {
    return line;
  }
  for (const vertex of status.vertexes ?? [])
    if (localVertexNames.test(vertex.name ?? '')) localVertices.add(vertex.digest ?? '');
  for (const key of ['vertexes', 'statuses', 'logs', 'warnings'])
    status[key] = status[key]?.map((item) =>
      localVertices.has(item.digest ?? item.vertex ?? '') ? item : (shiftStrings(item) as StatusItem),
    );
  return JSON.stringify(status);
}

const child = spawn(realBuildx, args, {
  stdio: ['inherit', shifted ? 'pipe' : 'inherit', shifted ? 'pipe' : 'inherit'],
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
if (shifted && command === 'bake') {
  child.stdout!.pipe(process.stdout);
  createInterface({ input: child.stderr!, crlfDelay: Infinity }).on('line', (line) =>
    process.stderr.write(`${shiftStatusLine(line)}\n`),
  );
} else if (shifted) {
  child.stderr!.pipe(process.stderr);
  const chunks: Buffer[] = [];
  child.stdout!.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stdout!.on('end', () =>
    process.stdout.write(shiftHistoryOutput(Buffer.concat(chunks).toString('utf8'))),
  );
}
child.on('close', (code, signal) => {
  process.exitCode = code ?? 128 + (signal ? constants.signals[signal] : 1);
});
