import { createStreamStats, type StreamStats } from '../../artifacts/index.js';
import { parseSampleLine, type MetricSample } from './parse-sample-line.js';

// An in-house parser for the Prometheus text exposition format (version 0.0.4), as node_exporter serves
// it. Tolerant: unknown comments, unknown TYPE values and quoted UTF-8 names never throw; every line
// lands in exactly one of records (samples), skipped (by reason) or rejected (malformed, with examples).

type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface MetricFamily {
  name: string;
  type: MetricType;
  help: string | undefined;
  samples: MetricSample[];
}

export interface ParsedMetrics {
  /** By family name. Histogram/summary `_bucket`/`_sum`/`_count` samples sit in their family. */
  families: Map<string, MetricFamily>;
  stats: StreamStats;
}

export type { MetricSample } from './parse-sample-line.js';

const knownTypes: ReadonlySet<string> = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const groupedSuffixes = ['_bucket', '_sum', '_count', '_created'] as const;
const maxRejectedExamples = 5;

interface ParseState {
  families: Map<string, MetricFamily>;
  stats: StreamStats;
  /** The family of the most recent sample, so a family's samples are found without a suffix search. */
  current: MetricFamily | undefined;
}

/** Parses one scrape body. `source` names the stream in stats and warnings (e.g. `strix /metrics`). */
export function parseMetrics(text: string, source = 'metrics'): ParsedMetrics {
  const state: ParseState = { families: new Map(), stats: createStreamStats(source), current: undefined };
  state.stats.bytes = Buffer.byteLength(text, 'utf8');
  const length = text.length;
  let start = 0;
  let lineNumber = 0;
  while (start < length) {
    let end = text.indexOf('\n', start);
    const terminated = end !== -1;
    if (!terminated) end = length;
    lineNumber += 1;
    const lineEnd = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    if (terminated) parseLine(state, text.slice(start, lineEnd), lineNumber);
    else reject(state.stats, lineNumber, 'unterminated last line (the scrape may be truncated)');
    start = end + 1;
  }
  state.stats.lines = lineNumber;
  return { families: state.families, stats: state.stats };
}

function parseLine(state: ParseState, raw: string, lineNumber: number): void {
  const line = hasOuterBlank(raw) ? raw.trim() : raw;
  if (line === '') return skip(state.stats, 'blank');
  if (line.charCodeAt(0) === 35 /* # */) return parseComment(state, line);
  const parsed = parseSampleLine(line);
  if (typeof parsed === 'string') return reject(state.stats, lineNumber, parsed);
  findFamily(state, parsed.name).samples.push(parsed);
  state.stats.records += 1;
}

function parseComment(state: ParseState, line: string): void {
  const header = parseCommentHeader(line);
  if (header === undefined) return skip(state.stats, 'comment');
  const current = state.current;
  const family =
    current !== undefined && current.name === header.name
      ? current
      : ensureFamily(state.families, header.name);
  state.current = family;
  if (header.keyword === 'HELP') {
    family.help = header.rest.includes('\\')
      ? header.rest.replace(/\\(\\|n)/g, (_, c: string) => (c === 'n' ? '\n' : '\\'))
      : header.rest;
    return skip(state.stats, 'help');
  }
  const type = header.rest.trim().toLowerCase();
  if (!knownTypes.has(type)) {
    family.type = 'untyped';
    return skip(state.stats, 'unknown metric type');
  }
  family.type = type as MetricType;
  skip(state.stats, 'type');
}

interface CommentHeader {
  keyword: 'HELP' | 'TYPE';
  name: string;
  rest: string;
}

/** `# HELP name text` / `# TYPE name type` (name possibly quoted); undefined for any other comment. */
function parseCommentHeader(line: string): CommentHeader | undefined {
  let pos = 1;
  while (line.charCodeAt(pos) === 32 || line.charCodeAt(pos) === 9) pos += 1;
  const keyword = line.slice(pos, pos + 4);
  if (keyword !== 'HELP' && keyword !== 'TYPE') return undefined;
  pos += 4;
  const afterKeyword = line.charCodeAt(pos);
  if (afterKeyword !== 32 && afterKeyword !== 9) return undefined;
  while (line.charCodeAt(pos) === 32 || line.charCodeAt(pos) === 9) pos += 1;
  const nameEnd = findNameEnd(line, pos);
  if (nameEnd === pos) return undefined;
  const name = unquoteName(line.slice(pos, nameEnd));
  let restStart = nameEnd;
  if (line.charCodeAt(restStart) === 32 || line.charCodeAt(restStart) === 9) restStart += 1;
  return { keyword, name, rest: line.slice(restStart) };
}

function findNameEnd(line: string, start: number): number {
  if (line.charCodeAt(start) === 34) {
    const close = /^"(?:[^"\\]|\\.)*"/.exec(line.slice(start));
    return close === null ? start : start + close[0].length;
  }
  const space = line.indexOf(' ', start);
  const end = space < 0 ? line.length : space;
  const tab = line.indexOf('\t', start);
  return tab >= 0 && tab < end ? tab : end;
}

function hasOuterBlank(raw: string): boolean {
  if (raw.length === 0) return false;
  const first = raw.charCodeAt(0);
  const last = raw.charCodeAt(raw.length - 1);
  return first <= 32 || last <= 32;
}

function findFamily(state: ParseState, sampleName: string): MetricFamily {
  const current = state.current;
  if (current !== undefined && belongsTo(current, sampleName)) return current;
  let family = state.families.get(sampleName);
  if (family === undefined || family.type === 'untyped')
    family = findGroupedFamily(state.families, sampleName) ?? family;
  state.current = family ?? ensureFamily(state.families, sampleName);
  return state.current;
}

function belongsTo(family: MetricFamily, sampleName: string): boolean {
  if (family.name === sampleName) return true;
  if (family.type !== 'histogram' && family.type !== 'summary') return false;
  return sampleName.startsWith(family.name) && isGroupedSuffix(sampleName.slice(family.name.length));
}

function findGroupedFamily(
  families: Map<string, MetricFamily>,
  sampleName: string,
): MetricFamily | undefined {
  for (const suffix of groupedSuffixes) {
    if (!sampleName.endsWith(suffix)) continue;
    const family = families.get(sampleName.slice(0, -suffix.length));
    if (family !== undefined && (family.type === 'histogram' || family.type === 'summary')) return family;
  }
  return undefined;
}

function isGroupedSuffix(suffix: string): boolean {
  return (groupedSuffixes as readonly string[]).includes(suffix);
}

function ensureFamily(families: Map<string, MetricFamily>, name: string): MetricFamily {
  let family = families.get(name);
  if (family === undefined) {
    family = { name, type: 'untyped', help: undefined, samples: [] };
    families.set(name, family);
  }
  return family;
}

function unquoteName(raw: string): string {
  if (raw.length < 2 || !raw.startsWith('"')) return raw;
  return raw.slice(1, -1).replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
}

function skip(stats: StreamStats, reason: string): void {
  stats.skipped += 1;
  stats.skippedByReason[reason] = (stats.skippedByReason[reason] ?? 0) + 1;
}

function reject(stats: StreamStats, line: number, reason: string): void {
  stats.rejected += 1;
  if (stats.rejectedExamples.length < maxRejectedExamples) stats.rejectedExamples.push({ line, reason });
}
