import type { z } from 'zod';
import type { OtherEnvVar } from './env-vars.js';

// The shape of a command's flag table: what commander reads, and the zod schema each value must pass. Schemas are
// factories that receive zod, so building the commander tree (and `--help`) never loads zod.

export type Zod = typeof z;

export interface FlagSpec<S extends z.ZodType = z.ZodType> {
  /** Commander syntax, e.g. `--port <port>` or `--json`; the table key is commander's attribute name. */
  flags: string;
  description: string;
  env?: string;
  default?: string | boolean;
  /** Repeatable (`--link a=1 --link b=2`): the raw value is a list, `[]` when absent. */
  repeatable?: boolean;
  required?: boolean;
  value: (zod: Zod) => S;
  /** For the error message: what a good value looks like, and one (`--port abc: expected …. Use e.g. --port 8090.`). */
  expected?: string;
  example?: string;
}

export interface ArgumentSpec<S extends z.ZodType = z.ZodType> {
  /** Commander syntax: `<run>` (required) or `[run-dir]` (optional). */
  syntax: string;
  description: string;
  value: (zod: Zod) => S;
}

export interface CommandSpec<
  F extends Record<string, FlagSpec | undefined> = Record<string, FlagSpec | undefined>,
  A extends Record<string, ArgumentSpec> = Record<string, ArgumentSpec>,
> {
  name: string;
  description: string;
  /** In command-line order. */
  arguments: A;
  /** An `undefined` entry is a flag this command does not take (bench has no `--dispatch`). */
  flags: F;
  /** One or two command lines for `--help`, each parsed by a test so none goes stale. */
  examples: readonly string[];
  /** Environment variables the command reads besides its flags' (`env` above), for `--help`. */
  env: readonly OtherEnvVar[];
}

type ValueOf<S> = S extends { value: (zod: Zod) => infer T extends z.ZodType } ? z.output<T> : never;
type ValuesOf<T> = { [K in keyof T]: ValueOf<T[K]> };

/** What a command's runner receives: every flag and argument, parsed and typed by its schema. */
export type CommandValues<C extends CommandSpec> = ValuesOf<C['flags']> & ValuesOf<C['arguments']>;

/** Infers the table's types while giving each `value` factory its `zod` parameter. */
export function defineCommand<
  F extends Record<string, FlagSpec | undefined>,
  A extends Record<string, ArgumentSpec>,
>(spec: CommandSpec<F, A>): CommandSpec<F, A> {
  return spec;
}

/** `--sample-interval-ms <ms>` → `--sample-interval-ms`. */
export function toLongFlag(flag: FlagSpec): string {
  return /--[\w-]+/.exec(flag.flags)?.[0] ?? flag.flags;
}
