// The buildx and BuildKit features a run relies on, the first release of each, and the check preflight makes: a
// workstation with an older buildx would otherwise learn it at finalize, hours later, with the traces missing.
// Release landmarks: docs/harness.md ("Tool versions"), from the buildx and BuildKit tags that hold each change.

import {
  toBuildxCommand,
  parseVersion,
  toBuildkitVersion,
  type BuilderInspect,
  type InspectNode,
} from '../../executors/index.js';

type Tool = 'buildx' | 'BuildKit';

interface ToolRequirement {
  tool: Tool;
  /** First release with the feature, `major.minor.patch`. */
  minimum: string;
  feature: string;
  /** Older is a warning, not a refusal: the run copes without the feature (what it costs is in `feature`). */
  warnOnly?: boolean;
}

const TOOL_REQUIREMENTS: readonly ToolRequirement[] = [
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
    feature:
      'finalising a record on request (without it BuildKit saves the trace up to 3 s after the build; the harness retries `history trace` for about 10 s)',
    // Real BuildKit v0.14.1: `history trace` right after the bake said the record "is missing a trace"; the
    // harness's retries had it 3.8 s after the bake ended (docs/harness.md, "Tool versions").
    warnOnly: true,
  },
];

const isBefore = (found: readonly number[], minimum: readonly number[]) => {
  for (let i = 0; i < 3; i++)
    if ((found[i] ?? 0) !== (minimum[i] ?? 0)) return (found[i] ?? 0) < (minimum[i] ?? 0);
  return false;
};

export interface CheckToolVersionsOptions {
  /** `docker buildx version` output. */
  buildxVersion: string;
  /** The standalone buildx binary that printed it; undefined: `docker buildx` (for the commands messages quote). */
  buildx?: string | undefined;
  /** `buildx inspect` of each builder that answered. */
  builders: ReadonlyMap<string, BuilderInspect>;
}

export interface ToolVersionFindings {
  /** A tool too old for a feature the run needs: the run is refused. */
  problems: string[];
  /** A version that could not be read (no line, a commit hash, the Docker Engine's version): not checked. */
  warnings: string[];
}

/** One problem per tool too old for a feature the run needs (the version found, the minimum, the fix). */
export function checkToolVersions({
  buildxVersion,
  builders,
  buildx: binary,
}: CheckToolVersionsOptions): ToolVersionFindings {
  const problems: string[] = [];
  const warnings: string[] = [];
  const buildx = parseVersion(buildxVersion);
  const versionCommand = toBuildxCommand(binary, ['version']).command;
  const inspect = toBuildxCommand(binary, ['inspect']).command;
  if (buildx === undefined)
    problems.push(
      `${versionCommand} printed ${JSON.stringify(buildxVersion.trim().slice(0, 80))}, no version. Fix: install buildx ≥ 0.23.0 (${versionCommand} must print it)`,
    );
  for (const need of buildx ? findTooOld('buildx', buildx) : [])
    problems.push(
      `buildx ${buildx?.join('.')} is older than ${need.minimum}, the first with ${need.feature}. Fix: upgrade buildx on this workstation to ≥ ${latestMinimum('buildx')}`,
    );
  for (const [builder, found] of builders) {
    if (found.nodes.length === 0) warnings.push(`builder ${builder}: \`${inspect}\` listed no nodes`);
    for (const node of found.nodes)
      checkNode({ builder, driver: found.driver, node, problems, warnings, inspect });
  }
  return { problems, warnings };
}

interface CheckNodeInput {
  builder: string;
  driver: string | undefined;
  node: InspectNode;
  problems: string[];
  warnings: string[];
  /** The inspect command as messages quote it. */
  inspect: string;
}

function checkNode({ builder, driver, node, problems, warnings, inspect }: CheckNodeInput): void {
  const where = `builder ${builder} node ${node.name}`;
  const unchecked = `its BuildKit version is not checked (the run needs ≥ ${latestMinimum('BuildKit')})`;
  const found = node.buildkit === undefined ? undefined : toBuildkitVersion(node.buildkit);
  if (found === undefined) {
    const engine =
      driver === 'docker' && node.buildkit !== undefined && parseVersion(node.buildkit) !== undefined;
    warnings.push(
      node.buildkit === undefined
        ? `${where} (status ${node.status ?? 'unknown'}): \`${inspect}\` printed no BuildKit version; ${unchecked}`
        : engine
          ? `${where}: the docker driver printed \`${node.buildkit}\`, the Docker Engine's version, not BuildKit's; ${unchecked}. Fix: upgrade buildx (it then prints the engine's BuildKit version) or use a docker-container or remote builder`
          : `${where}: \`${inspect}\` printed \`${node.buildkit}\`, not a BuildKit release; ${unchecked}`,
    );
    return;
  }
  for (const need of findTooOld('BuildKit', found))
    (need.warnOnly === true ? warnings : problems).push(
      `${where} runs BuildKit ${node.buildkit} older than ${need.minimum}, the first with ${need.feature}. Fix: recreate the builder with a newer moby/buildkit image (≥ ${latestMinimum('BuildKit')})`,
    );
}

function findTooOld(tool: Tool, found: readonly number[]): ToolRequirement[] {
  return TOOL_REQUIREMENTS.filter(
    (need) => need.tool === tool && isBefore(found, parseVersion(need.minimum) ?? []),
  );
}

/** The version that has every feature of the tool. */
function latestMinimum(tool: Tool): string {
  return TOOL_REQUIREMENTS.filter((need) => need.tool === tool)
    .map((need) => need.minimum)
    .sort((a, b) => (isBefore(parseVersion(a) ?? [], parseVersion(b) ?? []) ? -1 : 1))
    .at(-1)!;
}
