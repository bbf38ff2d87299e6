import { commonFlags, rootFlag } from './common-flags.js';
import { defineCommand, type CommandValues } from './flag-table.js';
import { optionalText, switchValue } from './value-schemas.js';

// `rocm-perf publish [--push]`, `rocm-perf publish --into [DIR]`.

export const publishCommand = defineCommand({
  name: 'publish',
  description: 'static site of every run (top page selects a run, newest first); --push uploads it over SFTP',
  examples: ['rocm-perf publish --push', 'rocm-perf publish --into data/perf'],
  env: ['PUSH', 'SSH_AUTH_SOCK'],
  arguments: {},
  flags: {
    ...commonFlags,
    root: rootFlag,
    out: {
      flags: '--out <dir>',
      description: 'where to write the site (default: <root>/.site)',
      value: optionalText,
    },
    into: {
      flags: '--into [dir]',
      description:
        'write each finished run (data.json, report.md, SVGs, run.json, plan.json, artifacts.txt) into DIR/<stamp>/ with DIR/README.md and DIR/index.html, instead of the site (DIR default: data/perf)',
      value: (z) =>
        z
          .union([z.literal(true), z.string().trim().min(1)])
          .optional()
          .transform((value) => (value === true ? 'data/perf' : value)),
      expected: 'a directory',
      example: 'data/perf',
    },
    force: {
      flags: '--force',
      description: 'with --into: replace a published run whose files differ',
      default: false,
      value: switchValue,
    },
    push: {
      flags: '--push',
      description: 'upload to fleet.yaml `publish` over SFTP (also PUSH=1)',
      default: false,
      value: switchValue,
    },
  },
});

export type PublishValues = CommandValues<typeof publishCommand>;
