// The buildx and BuildKit features a run relies on, the first release of each, and the check preflight makes: a
// workstation with an older buildx would otherwise learn it at finalize, hours later, with the traces missing.
// Release landmarks: docs/harness.md ("Tool versions"), from the buildx and BuildKit tags that hold each change.

export type Tool = 'buildx' | 'BuildKit';

export interface ToolRequirement {
  tool: Tool;
  /** First release with the feature, `major.minor.patch`. */
  minimum: string;
  feature: string;
}

export const TOOL_REQUIREMENTS: readonly ToolRequirement[] = [
  {
    tool: 'buildx',
    minimum: '0.12.0',
    feature: '`bake --progress=rawjson` (the status stream of every target)',
  },
  {
    tool: 'buildx',
    minimum: '0.21.0',
    feature: '`history trace` and `history inspect --format json` (the traces)',
  },
  { tool: 'buildx', minimum: '0.23.0', feature: '`history ls --filter` (the record of a failed target)' },
  {
    tool: 'BuildKit',
    minimum: '0.11.0',
    feature: 'the build-history API and the trace kept with each record',
  },
  {
    tool: 'BuildKit',
    minimum: '0.15.0',
    feature: 'finalising a record on request (a trace readable as soon as the build ends)',
  },
];

/** `v0.21.2`, `0.21.2-desktop.1`, `github.com/docker/buildx v0.23.0 abc…` → [0, 21, 2]; undefined when none. */
export function parseVersion(text: string): [number, number, number] | undefined {
  const match = /\bv?(\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)] : undefined;
}

const isBefore = (found: readonly number[], minimum: readonly number[]) => {
  for (let i = 0; i < 3; i++)
    if ((found[i] ?? 0) !== (minimum[i] ?? 0)) return (found[i] ?? 0) < (minimum[i] ?? 0);
  return false;
};

/** The BuildKit version `docker buildx inspect` prints for the builder's node (either buildx layout). */
export function parseInspectBuildkitVersion(inspectOutput: string): string | undefined {
  return /^\s*(?:BuildKit version|Buildkit):\s*(\S+)/im.exec(inspectOutput)?.[1];
}

export interface CheckToolVersionsOptions {
  /** `docker buildx version` output. */
  buildxVersion: string;
  /** BuildKit version per builder (from `buildx inspect`); undefined when inspect did not say. */
  buildkitVersions: ReadonlyMap<string, string | undefined>;
}

/** One problem per tool too old for a feature the run needs: the version found, the minimum, and the fix. */
export function checkToolVersions({ buildxVersion, buildkitVersions }: CheckToolVersionsOptions): string[] {
  const problems: string[] = [];
  const buildx = parseVersion(buildxVersion);
  if (buildx === undefined)
    problems.push(
      `docker buildx version printed ${JSON.stringify(buildxVersion.trim().slice(0, 80))}, no version. Fix: install buildx ≥ 0.23.0 (docker buildx version must print it)`,
    );
  const tooOld = (tool: Tool, found: readonly number[]) =>
    TOOL_REQUIREMENTS.filter(
      (need) => need.tool === tool && isBefore(found, parseVersion(need.minimum) ?? []),
    );
  for (const need of buildx ? tooOld('buildx', buildx) : [])
    problems.push(
      `buildx ${buildx?.join('.')} is older than ${need.minimum}, the first with ${need.feature}. Fix: upgrade buildx on this workstation to ≥ ${latestMinimum('buildx')}`,
    );
  for (const [builder, text] of buildkitVersions) {
    const found = text === undefined ? undefined : parseVersion(text);
    if (found === undefined) {
      problems.push(
        `builder ${builder}: \`docker buildx inspect\` printed no BuildKit version. Fix: check the builder runs BuildKit ≥ ${latestMinimum('BuildKit')}`,
      );
      continue;
    }
    for (const need of tooOld('BuildKit', found))
      problems.push(
        `builder ${builder} runs BuildKit ${text} older than ${need.minimum}, the first with ${need.feature}. Fix: recreate the builder with a newer moby/buildkit image (≥ ${latestMinimum('BuildKit')})`,
      );
  }
  return problems;
}

/** The version that has every feature of the tool. */
function latestMinimum(tool: Tool): string {
  return TOOL_REQUIREMENTS.filter((need) => need.tool === tool)
    .map((need) => need.minimum)
    .sort((a, b) => (isBefore(parseVersion(a) ?? [], parseVersion(b) ?? []) ? -1 : 1))
    .at(-1)!;
}
