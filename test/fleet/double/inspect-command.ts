// `docker buildx inspect [NAME] [--bootstrap]`: the builder and its one node, in buildx's text layout.
import { readFleetState } from '../fleet-state.js';
import { resolveBuilder } from './bake-command.js';
import { CliError, type CommandIo } from './cli-error.js';
import { buildxPersistentFlags, getBool, getString, parseFlags, type FlagSpec } from './parse-flags.js';

const inspectFlags: readonly FlagSpec[] = [...buildxPersistentFlags, { name: 'bootstrap', kind: 'bool' }];

export function runInspectCommand(argv: readonly string[], io: CommandIo): number {
  const flags = parseFlags(argv, inspectFlags);
  if (flags.args.length > 1) throw new CliError(`"docker buildx inspect" accepts at most 1 argument.`);
  const state = readFleetState(io.statePath());
  const name = resolveBuilder(flags.args[0] ?? getString(flags, 'builder'), state);
  const builder = state.builders[name]!;
  io.out(
    [
      `Name:          ${name}`,
      'Driver:        remote',
      `Last Activity: ${new Date().toISOString()}`,
      '',
      'Nodes:',
      `Name:             ${builder.node}`,
      `Endpoint:         tcp://${builder.address}:1234`,
      `Status:           ${getBool(flags, 'bootstrap') ? 'running' : 'running'}`,
      `BuildKit version: ${builder.buildkitVersion}`,
      'Platforms:        linux/amd64, linux/amd64/v2, linux/amd64/v3',
      `Labels:`,
      ` org.mobyproject.buildkit.worker.executor:    oci`,
      ` org.mobyproject.buildkit.worker.hostname:    ${builder.node}`,
      ` org.rocm-perf.fleet.netns:                   ${builder.netns}`,
      '',
    ].join('\n'),
  );
  return 0;
}
