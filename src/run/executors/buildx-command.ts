// Every buildx call goes through here: `docker buildx <args>` by default, or `<binary> <args>` when fleet.yaml
// `bake.buildx`, PERF_BUILDX or --buildx names a standalone buildx (CI machines without a docker CLI).

export interface BuildxCommand {
  /** The program execa runs: `docker`, or the standalone binary's path. */
  file: string;
  args: string[];
  /** The command as a person would type it, for messages and logs. */
  command: string;
}

/** Pure: how to run `buildx <args>` (args without the leading `buildx`) with the configured binary. */
export function toBuildxCommand(binary: string | undefined, args: readonly string[]): BuildxCommand {
  const file = binary ?? 'docker';
  const argv = binary === undefined ? ['buildx', ...args] : [...args];
  return { file, args: argv, command: [file, ...argv].join(' ') };
}

export interface BakePrintCall {
  bakeFile: string;
  targets: readonly string[];
  /** A standalone buildx binary; undefined: `docker buildx`. */
  buildx?: string | undefined;
}

/** Pure: the `bake --print` call for a bake file (also the print's source in config error messages). */
export function toBakePrintCommand({ bakeFile, targets, buildx }: BakePrintCall): BuildxCommand {
  return toBuildxCommand(buildx, ['bake', '-f', bakeFile, '--print', ...targets]);
}
