import type { BuilderIdentity } from '../../artifacts/index.js';

// `buildx du --verbose` as it prints (tabs in buildx v0.23.0, spaces in v0.36.1), read into a builder's cache size.

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
