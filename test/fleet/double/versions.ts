// Release versions the double claims (buildx on the client, BuildKit per builder) and what each one changes in
// the behaviour the harness sees. Sources: docker/buildx and moby/buildkit release branches (docs/fleet-in-a-box.md).

/** `v0.23.1` → [0, 23, 1]; anything else → undefined. */
function parseVersion(text: string): [number, number, number] | undefined {
  const match = /^v(\d+)\.(\d+)\.(\d+)$/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/** Whether `version` is `minimum` or newer (both `vX.Y.Z`). */
export function isAtLeast(version: string, minimum: string): boolean {
  const [a, b] = [parseVersion(version), parseVersion(minimum)];
  if (!a || !b) throw new Error(`not a release version: ${!a ? version : minimum}`);
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return true;
}

/** BuildKit releases that change how a build uploads (release branches of moby/buildkit). */
export const buildkitSince = {
  /** registry cache export pushes its layer blobs in parallel (4 at a time; commit 87b57a2ff). */
  parallelCacheBlobs: 'v0.27.0',
  /** the image push runs in parallel with the cache export, outside the exporter's span (commit 88ef66c6b). */
  pushWithCacheExport: 'v0.28.0',
} as const;
