import { ENV_VAR_MEANINGS } from './env-vars.js';
import { toLongFlag, type CommandSpec } from './flag-table.js';

// What `rocm-perf <command> --help` shows after the flags: examples, and every environment variable the command
// reads (its flags' variables, and the others it reads). Pure.

export function renderCommandHelp(spec: CommandSpec): string {
  const fromFlags = Object.values(spec.flags).flatMap((flag) =>
    flag?.env === undefined ? [] : [[flag.env, `as ${toLongFlag(flag)} (the flag wins)`] as const],
  );
  const others = spec.env.map((name) => [name, ENV_VAR_MEANINGS[name]] as const);
  const env = [...fromFlags, ...others];
  const width = Math.max(...env.map(([name]) => name.length));
  return [
    '',
    'Examples:',
    ...spec.examples.map((example) => `  $ ${example}`),
    '',
    'Environment variables:',
    ...(env.length === 0 ? ['  none'] : env.map(([name, meaning]) => `  ${name.padEnd(width)}  ${meaning}`)),
    ...(env.length === 0 ? [] : ['  (a variable set empty, e.g. `PERF_FLEET=`, is not set)']),
  ].join('\n');
}
