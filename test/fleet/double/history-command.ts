// `docker buildx history inspect|trace|ls` against the double's record store.
import { readFleetState } from '../fleet-state.js';
import { resolveBuilder } from './bake-command.js';
import { CliError, type CommandIo } from './cli-error.js';
import { findSubcommandIndex } from './find-subcommand.js';
import {
  findHistoryRecord,
  readHistoryRecords,
  readTraceBlob,
  toInspectJson,
  toInspectPretty,
  toLocalRfc3339,
  type HistoryRecord,
} from './history-store.js';
import { parseGoDuration } from '../../../src/collect/logs/parse-go-duration.js';
import { buildxPersistentFlags, getArray, getString, parseFlags, type FlagSpec } from './parse-flags.js';
import { parseSpanStream, toJaegerJson } from './spans.js';

const historyFlags: Record<string, readonly FlagSpec[]> = {
  inspect: [...buildxPersistentFlags, { name: 'format', kind: 'string' }],
  trace: [
    ...buildxPersistentFlags,
    { name: 'addr', kind: 'string' },
    { name: 'compare', kind: 'string', unimplemented: true },
  ],
  ls: [
    ...buildxPersistentFlags,
    { name: 'format', kind: 'string' },
    { name: 'no-trunc', kind: 'bool' },
    { name: 'local', kind: 'bool' },
    { name: 'filter', kind: 'stringArray' },
  ],
};
const realButMissing = new Set(['logs', 'open', 'rm', 'import', 'export']);

function findRecord(io: CommandIo, builderFlag: string | undefined, ref: string | undefined) {
  const state = readFleetState(io.statePath());
  const builder = resolveBuilder(builderFlag, state);
  const record = findHistoryRecord(state.stateDir, builder, ref);
  if (!record)
    throw new CliError(ref === undefined ? 'no completed build found' : `no record found for ref "${ref}"`);
  return { state, record };
}

type RecordMatcher = (record: HistoryRecord) => boolean;

/** buildx's cutAny: the first separator of this list found anywhere in the filter wins (so `a>=b` cuts at `=`). */
function cutFilter(filter: string): { key: string; value: string; sep: string } {
  for (const sep of ['!=', '=', '<=', '<', '>=', '>']) {
    const at = filter.indexOf(sep);
    if (at >= 0) return { key: filter.slice(0, at), value: filter.slice(at + sep.length), sep };
  }
  throw new CliError(`invalid filter "${filter}"`);
}

/** `history ls --filter` as buildx applies it (commands/history/utils.go): status, ref and time filters. */
function toMatcher(filter: string): RecordMatcher {
  const { key, value, sep } = cutFilter(filter);
  if (key === 'status' || key === 'ref' || key === 'repository') {
    if (sep !== '=' && sep !== '!=')
      throw new CliError(`invalid separator for "${filter}", expected = or !=`);
    const read = (record: HistoryRecord) =>
      key === 'status'
        ? { completed: 'completed', failed: 'error', canceled: 'canceled' }[record.status]
        : key === 'ref'
          ? record.ref
          : '';
    if (sep === '!=') return (record) => read(record) !== value;
    return (record) => (key === 'status' ? read(record) === value : read(record).includes(value));
  }
  if (key === 'startedAt' || key === 'completedAt' || key === 'duration') {
    if (sep === '=' || sep === '!=')
      throw new CliError(`invalid separator for "${filter}", expected <=, <, >= or >`);
    const limit = toFilterLimit(key, value);
    const read = (record: HistoryRecord) =>
      key === 'startedAt'
        ? Math.floor(record.createdAtMs / 1000)
        : key === 'completedAt'
          ? Math.floor(record.completedAtMs / 1000)
          : (record.completedAtMs - record.createdAtMs) * 1e6;
    const compare = {
      '>=': (a: number) => a >= limit,
      '<=': (a: number) => a <= limit,
      '>': (a: number) => a > limit,
    };
    return (record) => (compare[sep as keyof typeof compare] ?? ((a: number) => a < limit))(read(record));
  }
  throw new CliError(`unsupported filter "${filter}"`);
}

/** A time filter's bound: a Go duration back from now, or an RFC 3339 time (seconds); a duration in ns. */
function toFilterLimit(key: string, value: string): number {
  const durationMs = parseGoDuration(value);
  if (key === 'duration') {
    if (durationMs === undefined) throw new CliError(`invalid duration ${value}`);
    return durationMs * 1e6;
  }
  if (durationMs !== undefined) return Math.floor((Date.now() - durationMs) / 1000);
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value)
    ? Date.parse(value)
    : Number.NaN;
  if (!Number.isFinite(ms)) throw new CliError(`invalid time ${value}`);
  return Math.floor(ms / 1000);
}

function runLs(
  io: CommandIo,
  builderFlag: string | undefined,
  options: { format: string | undefined; filters: readonly string[] },
): number {
  const state = readFleetState(io.statePath());
  const builder = resolveBuilder(builderFlag, state);
  const node = state.builders[builder]!.node;
  const matchers = options.filters.map(toMatcher);
  const records = readHistoryRecords(state.stateDir, builder).filter((r) =>
    matchers.every((match) => match(r)),
  );
  for (const r of records.slice(0, 50)) {
    const status = { completed: 'Completed', failed: 'Error', canceled: 'Canceled' }[r.status];
    if (options.format === 'json') {
      io.out(
        `${JSON.stringify({ cached_steps: r.numCachedSteps, completed_at: new Date(r.completedAtMs).toISOString(), completed_steps: r.numCompletedSteps, created_at: new Date(r.createdAtMs).toISOString(), name: r.name, ref: `${builder}/${node}/${r.ref}`, status, total_steps: r.numTotalSteps })}\n`,
      );
    } else {
      io.out(`${r.ref}  ${r.name}  ${status}  ${toLocalRfc3339(r.createdAtMs)}\n`);
    }
  }
  return 0;
}

export function runHistoryCommand(argv: readonly string[], io: CommandIo): number {
  const subIndex = findSubcommandIndex(argv, ['builder', 'format', 'addr', 'compare', 'filter']);
  const sub = subIndex === -1 ? undefined : argv[subIndex];
  if (sub === undefined)
    throw new CliError('"docker buildx history" requires a subcommand (inspect, trace, ls)');
  if (realButMissing.has(sub))
    throw new CliError(
      `history ${sub} is a real buildx command the rocm-perf fleet double does not implement`,
    );
  const specs = historyFlags[sub];
  if (!specs) throw new CliError(`unknown command "${sub}" for "docker buildx history"`);
  const rest = [...argv];
  rest.splice(subIndex, 1);
  const flags = parseFlags(rest, specs);
  if (flags.args.length > 1) throw new CliError(`"docker buildx history ${sub}" accepts at most 1 argument.`);
  const builderFlag = getString(flags, 'builder');
  if (sub === 'ls')
    return runLs(io, builderFlag, { format: getString(flags, 'format'), filters: getArray(flags, 'filter') });
  const { state, record } = findRecord(io, builderFlag, flags.args[0]);
  if (sub === 'inspect') {
    const format = getString(flags, 'format') ?? 'pretty';
    if (format === 'json') io.out(`${JSON.stringify(toInspectJson(record), null, 2)}\n`);
    else if (format === 'pretty') io.out(toInspectPretty(record));
    else throw new CliError(`the rocm-perf fleet double supports --format json|pretty only, got "${format}"`);
    return 0;
  }
  if (io.isStdoutTty)
    throw new CliError(
      'the rocm-perf fleet double cannot serve the Jaeger UI; redirect stdout to get the trace JSON',
    );
  io.out(`${toJaegerJson(parseSpanStream(readTraceBlob(state.stateDir, record)))}\n`);
  return 0;
}
