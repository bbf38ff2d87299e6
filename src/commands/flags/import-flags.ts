import { commonFlags, rootFlag } from './common-flags.js';
import { defineCommand, type CommandValues } from './flag-table.js';
import { switchValue } from './value-schemas.js';

// `rocm-perf import --lane NAME SRC`.

export const importCommand = defineCommand({
  name: 'import',
  description:
    'bring in a run recorded elsewhere (a run dir or a .tar.gz of one) under --root, as lane NAME (e.g. nightly-aws), or a CI build record (`docker buildx history export` → FILE.dockerbuild: one run, a target per record; docs/dockerbuild.md); a run or record holding a symlink, a hard link or a special file is refused, each named',
  examples: ['rocm-perf import --lane nightly-aws nightly.tar.gz', 'rocm-perf import build.dockerbuild'],
  env: [],
  arguments: {
    source: {
      syntax: '<src>',
      description: 'a run dir, a .tar.gz holding one, or a .dockerbuild (`buildx history export`)',
      value: (z) => z.string().trim().min(1),
    },
  },
  flags: {
    ...commonFlags,
    root: rootFlag,
    lane: {
      flags: '--lane <name>',
      description:
        'where the run was recorded, e.g. nightly-aws (this fleet’s own runs are lane `fleet`); needed for a run dir or .tar.gz, `ci` by default for a .dockerbuild',
      value: (z) =>
        z
          .string()
          .regex(/^[a-z0-9][a-z0-9._-]{0,62}$/)
          .optional(),
      expected: 'a lane name of lower-case letters, digits, `.`, `_` or `-`',
      example: 'nightly-aws',
    },
    force: {
      flags: '--force',
      description: 'replace a run of the same stamp already under --root',
      default: false,
      value: switchValue,
    },
  },
});

export type ImportValues = CommandValues<typeof importCommand>;
