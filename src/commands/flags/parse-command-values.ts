import type { z } from 'zod';
import { UsageError } from '../../shared/errors.js';
import { toLongFlag, type CommandSpec, type CommandValues, type FlagSpec, type Zod } from './flag-table.js';
import type { CliEnv } from './read-cli-env.js';

// Commander's raw strings → the typed values a command runs with. A value its schema refuses is a UsageError that
// names the flag (or the variable it came from), the value and the fix.

export interface RawCommandInput {
  /** Positional arguments in order; undefined where an optional one is absent. */
  args: readonly unknown[];
  /** Commander's option values, by attribute name (the table keys). */
  options: Readonly<Record<string, unknown>>;
  /** Commander's value source ('cli', 'default', …): a value typed on the command line wins over the environment. */
  sourceOf?: (key: string) => string | undefined;
  /** The CLI's environment without its empty variables (readCliEnv): a flag's `env` fills what the line leaves out. */
  env?: CliEnv;
}

/** Quoted when blanks would hide it (`--drop-node " "`). */
function show(value: unknown): string {
  return typeof value === 'string' && (value === '' || value.trim() !== value)
    ? JSON.stringify(value)
    : String(value);
}

function toFlagError(options: {
  command: string;
  flag: FlagSpec;
  raw: unknown;
  issue: z.core.$ZodIssue | undefined;
  fromEnv: boolean;
}): UsageError {
  const { command, flag, raw, issue, fromEnv } = options;
  const long = toLongFlag(flag);
  const index = issue?.path[0];
  const value = show(Array.isArray(raw) && typeof index === 'number' ? raw[index] : raw);
  const where = fromEnv && flag.env ? `${flag.env}=${value} (${long})` : `${long} ${value}`;
  const what =
    flag.expected === undefined ? (issue?.message ?? 'invalid value') : `expected ${flag.expected}`;
  const fix = flag.example === undefined ? '' : ` Use e.g. ${long} ${flag.example}.`;
  return new UsageError(`${where}: ${what}.${fix}`, {
    hint: `\`rocm-perf ${command} --help\` lists every flag`,
  });
}

function parseArguments(z: Zod, spec: CommandSpec, input: RawCommandInput, values: Record<string, unknown>) {
  Object.entries(spec.arguments).forEach(([key, argument], index) => {
    const raw = input.args[index];
    const parsed = argument.value(z).safeParse(raw);
    if (!parsed.success)
      throw new UsageError(
        `${argument.syntax} ${show(raw)}: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
        {
          hint: `\`rocm-perf ${spec.name} --help\` shows the arguments`,
        },
      );
    values[key] = parsed.data;
  });
}

/**
 * `--targets ""` typed on the command line would quietly mean "not given" (plan all of fleet.yaml's targets), and
 * `--arch ""` an arch of no name; an empty variable (make exports unset ones as empty) still means not set: readCliEnv
 * has left it out, so the flag's default applies.
 */
function isBlankFromCli(raw: unknown, source: string | undefined): boolean {
  return source === 'cli' && typeof raw === 'string' && raw.trim() === '';
}

export function parseCommandValues<C extends CommandSpec>(
  z: Zod,
  spec: C,
  input: RawCommandInput,
): CommandValues<C> {
  const values: Record<string, unknown> = {};
  parseArguments(z, spec, input, values);
  for (const [key, flag] of Object.entries(spec.flags)) {
    if (flag === undefined) continue;
    const fromLine = input.sourceOf?.(key) === 'cli';
    const envValue = flag.env === undefined || fromLine ? undefined : input.env?.[flag.env];
    const fromEnv = envValue !== undefined;
    const raw = fromEnv ? envValue : input.options[key];
    const parsed = flag.value(z).safeParse(raw);
    if (!parsed.success) {
      throw toFlagError({ command: spec.name, flag, raw, issue: parsed.error.issues[0], fromEnv });
    }
    const blank = parsed.data === undefined || (typeof parsed.data === 'string' && parsed.data.trim() === '');
    if (blank && isBlankFromCli(raw, input.sourceOf?.(key)))
      throw new UsageError(
        `${toLongFlag(flag)} ${show(raw)}: an empty value${flag.example === undefined ? '' : `; e.g. ${toLongFlag(flag)} ${flag.example}`}`,
        { hint: 'leave the flag out for the default (fleet.yaml or the environment), or give it a value' },
      );
    values[key] = parsed.data;
  }
  // Each key was parsed by the schema its type is inferred from.
  return values as CommandValues<C>;
}
