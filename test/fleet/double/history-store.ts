// Build records the double keeps per builder (like BuildKit's history store): one JSON record plus the stored
// trace blob per solve, under <stateDir>/history/<builder>/.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod/mini';

const HistoryRecordSchema = z.strictObject({
  version: z.literal(1),
  ref: z.string(),
  builder: z.string(),
  node: z.string(),
  name: z.string(),
  context: z.string(),
  dockerfile: z.string(),
  platforms: z.array(z.string()),
  buildArgs: z.record(z.string(), z.string()),
  labels: z.record(z.string(), z.string()),
  noCache: z.boolean(),
  createdAtMs: z.number(),
  completedAtMs: z.number(),
  status: z.enum(['completed', 'failed', 'canceled']),
  error: z.optional(z.string()),
  numTotalSteps: z.int(),
  numCompletedSteps: z.int(),
  numCachedSteps: z.int(),
  materials: z.array(z.strictObject({ uri: z.string(), digest: z.string() })),
  exporters: z.array(z.record(z.string(), z.string())),
});

export type HistoryRecord = z.output<typeof HistoryRecordSchema>;

function toHistoryDir(stateDir: string, builder: string): string {
  return path.join(stateDir, 'history', builder);
}

export function writeHistoryRecord(stateDir: string, record: HistoryRecord, traceBlob: string): void {
  const dir = toHistoryDir(stateDir, record.builder);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${record.ref}.trace.json`), traceBlob);
  writeFileSync(path.join(dir, `${record.ref}.json`), JSON.stringify(record, null, 2));
}

export function readHistoryRecords(stateDir: string, builder: string): HistoryRecord[] {
  const dir = toHistoryDir(stateDir, builder);
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json') && !name.endsWith('.trace.json'));
  } catch {
    return [];
  }
  return names
    .map((name) => HistoryRecordSchema.parse(JSON.parse(readFileSync(path.join(dir, name), 'utf8'))))
    .sort((a, b) => b.createdAtMs - a.createdAtMs);
}

/** Finds a record by bare id or `^N` (N-th most recent, 1-based); undefined when there is none. */
export function findHistoryRecord(
  stateDir: string,
  builder: string,
  ref: string | undefined,
): HistoryRecord | undefined {
  const records = readHistoryRecords(stateDir, builder);
  if (ref === undefined) return records[0];
  const nth = /^\^(\d+)$/.exec(ref);
  if (nth) return records[Number(nth[1]) - 1];
  return records.find((record) => record.ref === ref);
}

export function readTraceBlob(stateDir: string, record: HistoryRecord): string {
  return readFileSync(path.join(toHistoryDir(stateDir, record.builder), `${record.ref}.trace.json`), 'utf8');
}

/** Go's RFC3339Nano with the local offset, as `history inspect` prints StartedAt/CompletedAt. */
export function toLocalRfc3339(ms: number): string {
  const date = new Date(ms);
  const offsetMin = -date.getTimezoneOffset();
  const local = new Date(ms + offsetMin * 60_000).toISOString().replace(/\.?0*Z$/, '');
  if (offsetMin === 0) return `${local}Z`;
  const sign = offsetMin > 0 ? '+' : '-';
  const abs = Math.abs(offsetMin);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

const statusNames = { completed: 'completed', failed: 'failed', canceled: 'canceled' } as const;

/** `history inspect --format json` (buildkit.md §3.2): Go field names, Duration in ns. */
export function toInspectJson(record: HistoryRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {
    Name: record.name,
    Ref: record.ref,
    Context: record.context,
    Dockerfile: record.dockerfile,
    Platform: record.platforms,
    StartedAt: toLocalRfc3339(record.createdAtMs),
    CompletedAt: toLocalRfc3339(record.completedAtMs),
    Duration: Math.round((record.completedAtMs - record.createdAtMs) * 1e6),
    Status: statusNames[record.status],
    NumCompletedSteps: record.numCompletedSteps,
    NumTotalSteps: record.numTotalSteps,
    NumCachedSteps: record.numCachedSteps,
    BuildArgs: Object.entries(record.buildArgs).map(([Name, Value]) => ({ Name, Value })),
    Labels: Object.entries(record.labels).map(([Name, Value]) => ({ Name, Value })),
    Config: { ImageResolveMode: 'local', ...(record.noCache ? { NoCache: [] } : {}) },
    Materials: record.materials.map((m) => ({ URI: m.uri, Digests: [m.digest] })),
  };
  if (record.error !== undefined) out.Error = { Code: 2, Message: record.error, Name: 'Unknown' };
  return out;
}

/** The default `pretty` format, abridged. */
export function toInspectPretty(record: HistoryRecord): string {
  const json = toInspectJson(record);
  const durationS = ((record.completedAtMs - record.createdAtMs) / 1000).toFixed(1);
  return [
    `Context:        ${record.context}`,
    `Dockerfile:     ${record.dockerfile}`,
    '',
    `Started:        ${String(json.StartedAt)}`,
    `Duration:       ${durationS}s`,
    `Build Steps:    ${record.numCompletedSteps}/${record.numTotalSteps} (${Math.round((100 * record.numCachedSteps) / Math.max(1, record.numTotalSteps))}% cached)`,
    record.error ? `Error:          ${record.error}` : '',
    '',
  ]
    .filter((line, i, all) => line !== '' || all[i - 1] !== '')
    .join('\n');
}
