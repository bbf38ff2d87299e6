import type { BuilderIdentity } from '../../../artifacts/index.js';
import type { FleetNode } from '../../../config/index.js';
import { type BuilderIdentityCommands, parseBuildxDu, parseBuildxInspect } from '../../executors/index.js';

// Before the measured run: per builder, what changes when it is recreated or pruned (docs/cache-debug.md,
// "Builder identity"): its build cache's record count, total size and the creation time of its oldest record
// (`buildx du --verbose`), and its BuildKit version (`buildx inspect`). The cause "the builder's local cache no
// longer held the record" compares these with the previous run's.

async function readOne(node: FleetNode, commands: BuilderIdentityCommands): Promise<BuilderIdentity> {
  const [inspect, du] = await Promise.all([commands.inspect(node.builder), commands.du(node.builder)]);
  const versions = inspect.ok ? parseBuildxInspect(inspect.stdout).nodes.map((entry) => entry.buildkit) : [];
  const buildkitVersion = versions.find((version) => version !== undefined) ?? null;
  if (!du.ok)
    return {
      buildkitVersion,
      cacheRecords: null,
      cacheBytes: null,
      oldestRecordCreatedAt: null,
      error: `\`${du.command}\` failed: ${du.errorTail.trim().split('\n').at(-1) ?? 'no output'}`,
    };
  return { buildkitVersion, ...parseBuildxDu(du.stdout) };
}

/** Every node's builder identity, read at once; a builder that cannot be read gets nulls and the error. */
export async function readBuilderIdentities(
  nodes: readonly FleetNode[],
  commands: BuilderIdentityCommands,
): Promise<Map<string, BuilderIdentity>> {
  const read = await Promise.all(
    nodes.map(async (node) => [node.name, await readOne(node, commands)] as const),
  );
  return new Map(read);
}
