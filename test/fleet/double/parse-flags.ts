// cobra/pflag-style argument parsing for the `docker` double, so it accepts exactly the forms buildx accepts:
// `--name=value`, `--name value`, `-x value`, `-xvalue`, `-x=value`, bools as `--name` or `--name=true|false`,
// flags interspersed with arguments, and `--` ending flags. Everything else is a usage error worded like cobra's.

type FlagKind = 'bool' | 'string' | 'stringArray';

export interface FlagSpec {
  name: string;
  kind: FlagKind;
  short?: string;
  /** Real buildx flag the double does not implement: parsed, then refused with a clear message. */
  unimplemented?: boolean;
}

export interface ParsedFlags {
  values: Map<string, string[]>;
  args: string[];
}

export class FlagError extends Error {}

function findSpec(specs: readonly FlagSpec[], name: string): FlagSpec | undefined {
  return specs.find((spec) => spec.name === name);
}

function setValue(parsed: ParsedFlags, spec: FlagSpec, value: string): void {
  if (
    spec.kind === 'bool' &&
    !['true', 'false', '1', '0', 't', 'f', 'TRUE', 'FALSE', 'True', 'False'].includes(value)
  ) {
    throw new FlagError(
      `invalid argument "${value}" for "--${spec.name}" flag: strconv.ParseBool: parsing "${value}": invalid syntax`,
    );
  }
  const previous = spec.kind === 'stringArray' ? (parsed.values.get(spec.name) ?? []) : [];
  parsed.values.set(spec.name, [...previous, value]);
}

function parseLong(
  parsed: ParsedFlags,
  specs: readonly FlagSpec[],
  argv: readonly string[],
  i: number,
): number {
  const body = argv[i]!.slice(2);
  const eq = body.indexOf('=');
  const name = eq === -1 ? body : body.slice(0, eq);
  const spec = findSpec(specs, name);
  if (!spec) throw new FlagError(`unknown flag: --${name}`);
  if (eq !== -1) {
    setValue(parsed, spec, body.slice(eq + 1));
    return i;
  }
  if (spec.kind === 'bool') {
    setValue(parsed, spec, 'true');
    return i;
  }
  if (i + 1 >= argv.length) throw new FlagError(`flag needs an argument: --${name}`);
  setValue(parsed, spec, argv[i + 1]!);
  return i + 1;
}

function parseShort(
  parsed: ParsedFlags,
  specs: readonly FlagSpec[],
  argv: readonly string[],
  i: number,
): number {
  const arg = argv[i]!;
  let j = 1;
  while (j < arg.length) {
    const letter = arg[j]!;
    const spec = specs.find((s) => s.short === letter);
    if (!spec) throw new FlagError(`unknown shorthand flag: '${letter}' in ${arg}`);
    const rest = arg.slice(j + 1);
    if (spec.kind === 'bool') {
      if (rest.startsWith('=')) {
        setValue(parsed, spec, rest.slice(1));
        return i;
      }
      setValue(parsed, spec, 'true');
      j++;
      continue;
    }
    if (rest.length > 0) {
      setValue(parsed, spec, rest.startsWith('=') ? rest.slice(1) : rest);
      return i;
    }
    if (i + 1 >= argv.length) throw new FlagError(`flag needs an argument: '${letter}' in -${letter}`);
    setValue(parsed, spec, argv[i + 1]!);
    return i + 1;
  }
  return i;
}

export function parseFlags(argv: readonly string[], specs: readonly FlagSpec[]): ParsedFlags {
  const parsed: ParsedFlags = { values: new Map(), args: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      parsed.args.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) i = parseLong(parsed, specs, argv, i);
    else if (arg.startsWith('-') && arg.length > 1) i = parseShort(parsed, specs, argv, i);
    else parsed.args.push(arg);
  }
  for (const spec of specs) {
    if (spec.unimplemented && parsed.values.has(spec.name)) {
      throw new UnimplementedFlagError(
        `--${spec.name} is a real buildx flag the rocm-perf fleet double does not implement`,
      );
    }
  }
  return parsed;
}

class UnimplementedFlagError extends Error {}

export function getString(parsed: ParsedFlags, name: string): string | undefined {
  return parsed.values.get(name)?.at(-1);
}

export function getBool(parsed: ParsedFlags, name: string): boolean {
  const value = getString(parsed, name);
  return value !== undefined && ['true', '1', 't', 'TRUE', 'True'].includes(value);
}

export function getArray(parsed: ParsedFlags, name: string): string[] {
  return parsed.values.get(name) ?? [];
}

/** Flags every `docker buildx` subcommand inherits from the buildx root command. */
export const buildxPersistentFlags: readonly FlagSpec[] = [
  { name: 'builder', kind: 'string' },
  { name: 'debug', kind: 'bool', short: 'D' },
  { name: 'help', kind: 'bool', short: 'h' },
];
