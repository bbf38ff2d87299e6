import { describe, expect, it } from 'vitest';
import { listCliCommands } from '../../../src/commands/contracts.js';
import { checkMakefileShims, type CliCommandSpec } from '../../../src/contracts/check-makefile-shims.js';
import type { SourceLocation } from '../../../src/contracts/contract-result.js';
import { parseMakefile } from '../../../src/contracts/parse-makefile.js';
import { matching, readRepoFile } from './repo-files.js';

const makefileText = readRepoFile('Makefile');
const programAt = { file: 'src/commands/flags/index.ts', line: undefined };
const allEnv = new Map<string, SourceLocation>(
  [
    'PERF_ARCH',
    'PERF_TARGETS',
    'PERF_BIND',
    'PERF_COLD_NAMESPACE',
    'REGISTRY_NAME',
    'PUSH',
    'PERF_ROOT',
    'PERF_FLEET',
  ].map((name) => [name, { file: 'src/x.ts', line: 1 }]),
);
const builtCommands: CliCommandSpec[] = [
  'plan',
  'cold',
  'warm',
  'bench',
  'report',
  'serve',
  'publish',
  'contracts',
].map((name) => ({ name, flags: ['--fleet', '--help'] }));

function check(
  text: string,
  options: {
    commands?: CliCommandSpec[];
    envReads?: Map<string, SourceLocation>;
    isFile?: (file: string) => boolean;
  } = {},
) {
  return checkMakefileShims({
    makefileText: text,
    makefilePath: 'Makefile',
    commands: options.commands ?? builtCommands,
    programAt,
    envReads: options.envReads ?? allEnv,
    isFile: options.isFile ?? (() => true),
  });
}

function lineOf(text: string, needle: string): number {
  return text.split('\n').findIndex((line) => line.includes(needle)) + 1;
}

describe('checkMakefileShims', () => {
  it('agrees with the real CLI (its flag tables) on the shipped Makefile', () => {
    const { commands, envVars } = listCliCommands();
    const result = check(makefileText, { commands, envReads: envVars });
    expect(result.problems).toEqual([]);
    expect(result.notes[0]).toBe('8 perf-* shims, 0 exported variables');
  });

  it('names a renamed subcommand with the recipe line', () => {
    const text = makefileText.replace('$(ROCM_PERF) cold', '$(ROCM_PERF) coldrun');
    const result = check(text);
    expect(result.problems).toEqual([
      {
        message: matching(
          /^perf-cold runs `rocm-perf coldrun`, which is not a subcommand of the CLI\. Fix: use one of plan, cold/,
        ),
        producer: { file: 'Makefile', line: lineOf(text, 'coldrun') },
        consumer: programAt,
      },
    ]);
  });

  it('names a flag the subcommand does not define', () => {
    const text = makefileText.replace('$(ROCM_PERF) plan', '$(ROCM_PERF) plan --fleet=x --arch $(PERF_ARCH)');
    expect(check(text).problems.map((problem) => problem.message)).toEqual([
      matching(/^perf-plan passes `--arch` to `rocm-perf plan`, which has no such option/),
    ]);
  });

  it('names an exported variable the CLI never reads', () => {
    const reads = new Map(allEnv);
    reads.delete('PUSH');
    const text = makefileText.replace('ROCM_PERF ?=', 'export PERF_ARCH PUSH\nROCM_PERF ?=');
    const result = check(text, { envReads: reads });
    expect(result.problems).toEqual([
      {
        message: matching(/exports PUSH but the CLI never reads it/),
        producer: { file: 'Makefile', line: lineOf(text, 'export PERF_ARCH') },
        consumer: programAt,
      },
    ]);
  });

  it('names a shim that no longer calls the CLI, and a CLI variable pointing at a missing script', () => {
    const text = makefileText.replace('$(ROCM_PERF) serve', 'python3 perfserve.py');
    expect(check(text).problems[0]?.message).toBe(
      'perf-serve does not call $(ROCM_PERF). Fix: make the shim run `$(ROCM_PERF) <subcommand>`.',
    );
    const missing = check(makefileText, { isFile: () => false });
    expect(missing.problems[0]).toMatchObject({
      message: matching(/runs `bin\/rocm-perf.js`, which does not exist/),
      producer: { file: 'Makefile', line: lineOf(makefileText, 'ROCM_PERF ?=') },
    });
  });

  it('fails without a variable that runs rocm-perf', () => {
    expect(check('perf-plan:\n\tnode cli.js plan\n').problems[0]?.message).toMatch(
      /no variable runs rocm-perf/,
    );
  });
});

describe('parseMakefile', () => {
  it('reads variables, exports, rules (targets sharing a recipe) and continued recipe lines', () => {
    const parsed = parseMakefile(
      'A ?= x\nexport B C\nexport D := y\n# c\nt1 t2: dep\n\t@echo $(A) \\\n\t  more\n\n\t# note\nu:\n\trun\n',
    );
    expect([...parsed.variables]).toEqual([
      ['A', { value: 'x', line: 1 }],
      ['D', { value: 'y', line: 3 }],
    ]);
    expect(parsed.exported).toEqual([
      { name: 'B', line: 2 },
      { name: 'C', line: 2 },
      { name: 'D', line: 3 },
    ]);
    expect(parsed.rules.map((rule) => [rule.target, rule.line, rule.recipe])).toEqual([
      ['t1', 5, [{ text: '@echo $(A)  more', line: 6 }]],
      ['t2', 5, [{ text: '@echo $(A)  more', line: 6 }]],
      ['u', 10, [{ text: 'run', line: 11 }]],
    ]);
  });
});
