import {
  at,
  createContractResult,
  type ContractProblem,
  type ContractResult,
  type SourceLocation,
} from './contract-result.js';
import { escapeRegExp } from './find-line.js';
import { parseMakefile, type MakeRule, type ParsedMakefile } from './parse-makefile.js';

// Pair 5a: the Makefile shims (producer of invocations) vs the CLI's subcommands, flags and env vars (consumer).

/** One subcommand as its flag table defines it. */
export interface CliCommandSpec {
  name: string;
  /** Long flags, e.g. `--fleet`. */
  flags: string[];
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
}

interface Invocation {
  rule: MakeRule;
  line: number;
  subcommand: string | undefined;
  flags: string[];
}

/** The variable that runs the CLI: its value names rocm-perf. */
function findCliVariable(makefile: ParsedMakefile): string | undefined {
  for (const [name, { value }] of makefile.variables) if (/rocm-perf/.test(value)) return name;
  return undefined;
}

function findInvocations(rule: MakeRule, cliVariable: string): Invocation[] {
  const reference = new RegExp(`\\$[({]${escapeRegExp(cliVariable)}[)}]\\s*(.*)$`);
  return rule.recipe.flatMap(({ text, line }) => {
    const match = reference.exec(text);
    if (!match) return [];
    const words = (match[1] ?? '').split(/\s+/).filter(Boolean);
    const subcommand = words[0]?.startsWith('-') ? undefined : words[0];
    const flags = words.filter((word) => word.startsWith('--')).map((word) => word.replace(/=.*$/, ''));
    return [{ rule, line, subcommand, flags }];
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
    for (const invocation of invocations) problems.push(...checkInvocation(invocation, options));
  }
  problems.push(...checkExports(makefile, options));
  const notes = [`${shims.length} perf-* shims, ${makefile.exported.length} exported variables`];
  return createContractResult({ pair: 'makefile-shims', title, problems, notes });
}
