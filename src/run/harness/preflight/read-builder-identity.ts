import type { BuilderIdentity } from '../../../artifacts/index.js';
import type { FleetNode } from '../../../config/schema.js';
import type { BuilderIdentityCommands } from '../../executors/buildx-probes.js';
import { parseBuildxInspect } from './check-tool-versions.js';

// Before the measured run: per builder, what changes when it is recreated or pruned (docs/cache-debug.md,
// "Builder identity"): its build cache's record count, total size and the creation time of its oldest record
// (`buildx du --verbose`), and its BuildKit version (`buildx inspect`). The cause "the builder's local cache no
// longer held the record" compares these with the previous run's.

const units: Readonly<Record<string, number>> = {
  B: 1,
  kB: 1e3,
  MB: 1e6,
  GB: 1e9,
  TB: 1e12,
  PB: 1e15,
};

/** Pure: go-units' HumanSize (`4.096kB`, `2.003MB`, `0B`: decimal units) → bytes; undefined when not one. */
function parseHumanSize(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*([kMGTP]?B)$/.exec(text.trim());
  const unit = match?.[2] === undefined ? undefined : units[match[2]];
  return match?.[1] === undefined || unit === undefined ? undefined : Number(match[1]) * unit;
}

/** Pure: `2026-12-06 18:48:35.396728297 +0000 UTC` (Go's time.Time String) → ISO 8601 in UTC; undefined if not one. */
function toIsoTime(text: string): string | undefined {
  const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(\.\d+)? ([+-]\d{2})(\d{2})/.exec(text.trim());
  if (!match) return undefined;
  const [, date, time, fraction = '', hours, minutes] = match;
  const ms = Date.parse(`${date}T${time}${fraction.slice(0, 4)}${hours}:${minutes}`);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/**
 * Pure: `buildx du --verbose` (one `Key: value` block per cache record, then `Reclaimable:` and `Total:`; tabs in
 * buildx v0.23.0, spaces in v0.36.1) → record count, total bytes and the oldest record's creation time.
 * @internal
 */
export function parseBuildxDu(
  text: string,
): Pick<BuilderIdentity, 'cacheRecords' | 'cacheBytes' | 'oldestRecordCreatedAt'> {
  let records = 0;
  let oldest: string | null = null;
  let total: number | null = null;
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z][A-Za-z ]*):\s+(.*)$/.exec(line.trimEnd());
    if (!match) continue;
    const [, key, value = ''] = match;
    if (key === 'ID') records += 1;
    else if (key === 'Created at') {
      const iso = toIsoTime(value);
      if (iso !== undefined && (oldest === null || iso < oldest)) oldest = iso;
    } else if (key === 'Total') total = parseHumanSize(value) ?? null;
  }
  return { cacheRecords: records, cacheBytes: total, oldestRecordCreatedAt: oldest };
}

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
