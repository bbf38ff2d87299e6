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
} from './history-store.js';
import { buildxPersistentFlags, getString, parseFlags, type FlagSpec } from './parse-flags.js';
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
    { name: 'filter', kind: 'stringArray', unimplemented: true },
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

function runLs(io: CommandIo, builderFlag: string | undefined, format: string | undefined): number {
  const state = readFleetState(io.statePath());
  const builder = resolveBuilder(builderFlag, state);
  const node = state.builders[builder]!.node;
  for (const r of readHistoryRecords(state.stateDir, builder).slice(0, 50)) {
    const status = { completed: 'Completed', failed: 'Error', canceled: 'Canceled' }[r.status];
    if (format === 'json') {
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
  if (sub === 'ls') return runLs(io, builderFlag, getString(flags, 'format'));
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
