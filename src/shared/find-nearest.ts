// "Did you mean": the known names nearest to a mistyped one. Pure.

/** Edit distance counting a swap of neighbours as one edit (optimal string alignment). @internal */
export function measureEditDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i += 1) {
    for (let j = 1; j < cols; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * Up to `limit` known names closest to `name`: those at the smallest edit distance, if it is within a third of its
 * length (at least one), ignoring case, by name; else names that contain it or that it contains (`torch` → `pytorch`).
 */
export function findNearest(name: string, known: readonly string[], limit = 3): string[] {
  const wanted = name.toLowerCase();
  const allowed = Math.max(1, Math.floor(wanted.length / 3));
  const close = known
    .map((candidate) => ({ candidate, distance: measureEditDistance(wanted, candidate.toLowerCase()) }))
    .filter(({ distance }) => distance <= allowed)
    .sort((x, y) => x.distance - y.distance || x.candidate.localeCompare(y.candidate));
  const nearest = close[0]?.distance;
  const best = close.filter(({ distance }) => distance === nearest).map(({ candidate }) => candidate);
  if (best.length > 0) return best.slice(0, limit);
  if (wanted.length < 3) return [];
  return known
    .filter((candidate) => {
      const lower = candidate.toLowerCase();
      return lower.includes(wanted) || (lower.length >= 3 && wanted.includes(lower));
    })
    .sort()
    .slice(0, limit);
}

/** ` Did you mean `a` or `b`?`, or '' when nothing is near. */
export function renderDidYouMean(name: string, known: readonly string[]): string {
  const near = findNearest(name, known);
  if (near.length === 0) return '';
  const quoted = near.map((n) => `\`${n}\``);
  const list = quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
  return ` Did you mean ${list}?`;
}
