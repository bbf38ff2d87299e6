// `docker buildx inspect` and `buildx version` as they print (real captures: test/fixtures/buildkit-real/), read into
// the builder's driver, its nodes and their versions. Preflight checks the versions (check-tool-versions.ts); the
// builders' identity keeps the BuildKit version.

/** `v0.21.2`, `0.21.2-desktop.1`, `github.com/docker/buildx v0.23.0 abc…` → [0, 21, 2]; undefined when none. */
export function parseVersion(text: string): [number, number, number] | undefined {
  const match = /\bv?(\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)] : undefined;
}

/** One node of `docker buildx inspect`: its name, status and the version line, as printed. */
export interface InspectNode {
  name: string;
  status: string | undefined;
  /** `BuildKit version:` (buildx ≥ 0.10) or `Buildkit:` (older); undefined when the node printed none. */
  buildkit: string | undefined;
}

export interface BuilderInspect {
  driver: string | undefined;
  nodes: InspectNode[];
}

/**
 * Pure: `docker buildx inspect` output → the builder's driver and every node (a builder may have several; a node
 * that is down prints `Status: inactive` and no version line). Both layouts: `BuildKit version:` and `Buildkit:`.
 */
export function parseBuildxInspect(output: string): BuilderInspect {
  const [head = '', body = ''] = output.split(/^Nodes:\s*$/m);
  const field = (text: string, key: string) =>
    new RegExp(`^\\s*${key}:[ \\t]*(\\S.*?)\\s*$`, 'im').exec(text)?.[1];
  const nodes = body
    .split(/^(?=Name:)/m)
    .filter((block) => /^Name:/.test(block))
    .map((block) => ({
      name: field(block, 'Name') ?? '',
      status: field(block, 'Status'),
      buildkit: field(block, '(?:BuildKit version|Buildkit)'),
    }));
  return { driver: field(head, 'Driver'), nodes };
}

/** BuildKit releases are 0.x; `v0.0.0+unknown` is a build without a version stamped in. */
export function toBuildkitVersion(text: string): [number, number, number] | undefined {
  const found = parseVersion(text);
  if (found === undefined || found[0] !== 0 || (found[1] === 0 && found[2] === 0)) return undefined;
  return found;
}
