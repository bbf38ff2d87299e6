import { commonFlags, rootFlag } from './common-flags.js';
import { defineCommand, type CommandValues } from './flag-table.js';
import { optionalText, switchValue } from './value-schemas.js';

// `rocm-perf publish [--push]`.

export const publishCommand = defineCommand({
  name: 'publish',
  description: 'static site of every run (top page selects a run, newest first); --push uploads it over SFTP',
  arguments: {},
  flags: {
    ...commonFlags,
    root: rootFlag,
    out: {
      flags: '--out <dir>',
      description: 'where to write the site (default: <root>/.site)',
      value: optionalText,
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
