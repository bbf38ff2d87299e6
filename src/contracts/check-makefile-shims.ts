import {
  at,
  createContractResult,
  type ContractProblem,
  type ContractResult,
  type SourceLocation,
} from './contract-result.js';
import { escapeRegExp } from './find-line.js';
import { parseMakefile, type MakeRule, type ParsedMakefile } from './parse-makefile.js';
import type { ShimCall, ShimRun } from './run-makefile-shims.js';

// Pair 5a: the Makefile shims (producer of invocations) vs the CLI's subcommands, flags and env vars (consumer).

/** One subcommand as its flag table defines it. */
export interface CliCommandSpec {
  name: string;
  /** Long flags, e.g. `--fleet`. */
  flags: string[];
  /** The environment variables it reads (its flags' and the others it names), e.g. PERF_FLEET. */
  env?: string[];
}

export interface CheckMakefileShimsOptions {
  makefileText: string;
  makefilePath: string;
  commands: readonly CliCommandSpec[];
  /** Where the CLI's flags are defined, for the consumer side of messages (src/commands/flags/). */
  programAt: SourceLocation;
  /** Environment variables the CLI reads, with where. */
  envReads: ReadonlyMap<string, SourceLocation>;
  /** Resolves a path named in the CLI variable (e.g. `bin/rocm-perf.js`) to whether it exists. */
  isFile: (relativePath: string) => boolean;
  /**
   * The shims as make ran them with a stub CLI (run-makefile-shims.ts): a bare run per shim, as a new user types it,
   * and one with the subcommand's variables given on make's command line. Undefined when make could not be run.
   */
  runs?: readonly ShimRun[] | undefined;
  /** What the CLI makes of one call (its own flag tables and environment reading): each problem as a sentence. */
  resolveCall?: (call: ShimCall) => string[];
}

interface Invocation {
  rule: MakeRule;
  line: number;
  subcommand: string | undefined;
  flags: string[];
}

/** The variable that runs the CLI: its value names rocm-perf. */
export function findCliVariable(makefile: ParsedMakefile): string | undefined {
  for (const [name, { value }] of makefile.variables) if (/rocm-perf/.test(value)) return name;
  return undefined;
}

function toInvocation(rule: MakeRule, words: readonly string[]): Invocation {
  const subcommand = words[0]?.startsWith('-') ? undefined : words[0];
  const flags = words.filter((word) => word.startsWith('--')).map((word) => word.replace(/=.*$/, ''));
  return { rule, line: rule.line, subcommand, flags };
}

export function findInvocations(rule: MakeRule, cliVariable: string): Invocation[] {
  const reference = new RegExp(`\\$[({]${escapeRegExp(cliVariable)}[)}]\\s*(.*)$`);
  return rule.recipe.flatMap(({ text, line }) => {
    const match = reference.exec(text);
    if (!match) return [];
    const words = (match[1] ?? '').split(/\s+/).filter(Boolean);
    return [{ ...toInvocation(rule, words), line }];
  });
}

function checkInvocation(invocation: Invocation, options: CheckMakefileShimsOptions): ContractProblem[] {
  const producer = at(options.makefilePath, invocation.line);
  const { rule, subcommand } = invocation;
  const command = options.commands.find((candidate) => candidate.name === subcommand);
  if (!command) {
    const known = options.commands.map((candidate) => candidate.name).join(', ');
    return [
      {
        message: `${rule.target} runs \`rocm-perf ${subcommand ?? ''}\`, which is not a subcommand of the CLI. Fix: use one of ${known}.`,
        producer,
        consumer: options.programAt,
      },
    ];
  }
  return invocation.flags
    .filter((flag) => !command.flags.includes(flag) && flag !== '--help')
    .map((flag) => ({
      message: `${rule.target} passes \`${flag}\` to \`rocm-perf ${command.name}\`, which has no such option. Fix: use one of ${command.flags.join(', ')}.`,
      producer,
      consumer: options.programAt,
    }));
}

function checkCliPath(
  makefile: ParsedMakefile,
  cliVariable: string,
  options: CheckMakefileShimsOptions,
): ContractProblem[] {
  const variable = makefile.variables.get(cliVariable);
  const script = variable?.value.split(/\s+/).find((word) => word.endsWith('.js'));
  if (!variable || script === undefined || options.isFile(script)) return [];
  return [
    {
      message: `${cliVariable} runs \`${script}\`, which does not exist. Fix: point it at bin/rocm-perf.js.`,
      producer: at(options.makefilePath, variable.line),
      consumer: at(script),
    },
  ];
}

function checkExports(makefile: ParsedMakefile, options: CheckMakefileShimsOptions): ContractProblem[] {
  return makefile.exported
    .filter(({ name }) => !options.envReads.has(name))
    .map(({ name, line }) => ({
      message: `the Makefile exports ${name} but the CLI never reads it. Fix: stop exporting it, or pass the value as a flag in the shim.`,
      producer: at(options.makefilePath, line),
      consumer: options.programAt,
    }));
}

function exportLine(makefile: ParsedMakefile, name: string, rule: MakeRule): number {
  return makefile.exported.find((entry) => entry.name === name)?.line ?? rule.line;
}

/** The CLI's variables that arrive empty in a bare run (nothing given): the Makefile handed them down, not the user. */
function findEmptyHandDowns(call: ShimCall, options: CheckMakefileShimsOptions): string[] {
  return [...options.envReads.keys()].filter((name) => call.env[name]?.trim() === '');
}

function checkEmptyHandDowns(
  empty: ReadonlyMap<string, string[]>,
  makefile: ParsedMakefile,
  options: CheckMakefileShimsOptions,
): ContractProblem[] {
  return [...empty.keys()].sort().map((name) => {
    const targets = empty.get(name) ?? [];
    const rule = makefile.rules.find((candidate) => candidate.target === targets[0]);
    return {
      message: `${targets.map((target) => `\`make ${target}\``).join(', ')} ${targets.length === 1 ? 'hands' : 'hand'} the CLI ${name}="" though the user set no ${name}. Fix: drop ${name} from the \`export\` line (make hands a recipe the variables given on its command line and those of its environment by itself).`,
      producer: at(options.makefilePath, rule ? exportLine(makefile, name, rule) : undefined),
      consumer: options.envReads.get(name) ?? options.programAt,
    };
  });
}

function checkResolvedCall(rule: MakeRule, call: ShimCall, options: CheckMakefileShimsOptions) {
  return (options.resolveCall?.(call) ?? []).map((message) => ({
    message: `\`make ${rule.target}\` runs \`rocm-perf ${call.argv.join(' ')}\`, and the CLI would stop: ${message}`,
    producer: at(options.makefilePath, rule.line),
    consumer: options.programAt,
  }));
}

/** A run with variables given on make's command line: each must reach the CLI as given. */
function checkGivenCall(rule: MakeRule, run: ShimRun, call: ShimCall, options: CheckMakefileShimsOptions) {
  return Object.entries(run.given)
    .filter(([name, value]) => call.env[name] !== value)
    .map(([name, value]) => ({
      message: `\`make ${rule.target} ${name}=${value}\` does not reach the CLI (it received ${call.env[name] === undefined ? `no ${name}` : `${name}=${JSON.stringify(call.env[name])}`}). Fix: do not override or unexport ${name} in the Makefile.`,
      producer: at(options.makefilePath, rule.line),
      consumer: options.envReads.get(name) ?? options.programAt,
    }));
}

function checkRuns(makefile: ParsedMakefile, options: CheckMakefileShimsOptions): ContractProblem[] {
  const problems: ContractProblem[] = [];
  const empty = new Map<string, string[]>();
  for (const run of options.runs ?? []) {
    const rule = makefile.rules.find((candidate) => candidate.target === run.target);
    if (!rule) continue;
    const producer = at(options.makefilePath, rule.line);
    if (run.failure !== undefined) {
      problems.push({
        message: `\`make ${run.target}\` with a stub CLI failed: ${run.failure}`,
        producer,
        consumer: options.programAt,
      });
      continue;
    }
    if (run.calls.length === 0)
      problems.push({
        message: `\`make ${run.target}\` ran no rocm-perf. Fix: make the shim run \`$(ROCM_PERF) <subcommand>\`.`,
        producer,
        consumer: options.programAt,
      });
    const bare = Object.keys(run.given).length === 0;
    for (const call of run.calls) {
      if (bare) {
        problems.push(...checkInvocation(toInvocation(rule, call.argv), options));
        problems.push(...checkResolvedCall(rule, call, options));
        for (const name of findEmptyHandDowns(call, options))
          empty.set(name, [...(empty.get(name) ?? []), rule.target]);
      } else problems.push(...checkGivenCall(rule, run, call, options));
    }
  }
  return [...checkEmptyHandDowns(empty, makefile, options), ...problems];
}

// Pure: every perf-* shim calls the CLI with a real subcommand and real flags, and its exports are read.
export function checkMakefileShims(options: CheckMakefileShimsOptions): ContractResult {
  const title = `${options.makefilePath} perf-* shims ↔ CLI (src/commands/flags/)`;
  const makefile = parseMakefile(options.makefileText);
  const cliVariable = findCliVariable(makefile);
  if (cliVariable === undefined) {
    const problem = {
      message:
        'no variable runs rocm-perf (e.g. `ROCM_PERF ?= node bin/rocm-perf.js`). Fix: define one and use it in the perf-* recipes.',
      producer: at(options.makefilePath),
      consumer: options.programAt,
    };
    return createContractResult({ pair: 'makefile-shims', title, problems: [problem] });
  }
  const problems: ContractProblem[] = [...checkCliPath(makefile, cliVariable, options)];
  const shims = makefile.rules.filter((rule) => rule.target.startsWith('perf-'));
  for (const rule of shims) {
    const invocations = findInvocations(rule, cliVariable);
    if (invocations.length === 0) {
      problems.push({
        message: `${rule.target} does not call $(${cliVariable}). Fix: make the shim run \`$(${cliVariable}) <subcommand>\`.`,
        producer: at(options.makefilePath, rule.line),
        consumer: options.programAt,
      });
    }
    // Run by make, the calls it really made are checked instead of the recipe's text.
    if (options.runs === undefined)
      for (const invocation of invocations) problems.push(...checkInvocation(invocation, options));
  }
  problems.push(...checkExports(makefile, options));
  problems.push(...checkRuns(makefile, options));
  const notes = [
    `${shims.length} perf-* shims, ${makefile.exported.length} exported variables`,
    options.runs === undefined
      ? 'make could not be run here: checked the recipes as text'
      : `ran ${options.runs.length} shim invocations with a stub CLI (as a new user, and with each subcommand's variables given)`,
  ];
  return createContractResult({ pair: 'makefile-shims', title, problems, notes });
}
