import type { TargetSummary } from '../artifacts/index.js';

// The measured critical path: start at the target that finished last and walk back through whatever it waited
// for, i.e. the latest-finishing of its dependencies (plan.json deps) and the target before it in its node's
// queue. A target that started long after both finished (slack > tolerance) ends the walk.

export interface CriticalPathOptions {
  targets: readonly TargetSummary[];
  deps: Readonly<Record<string, readonly string[]>>;
  toleranceMs?: number;
}

export interface CriticalPath {
  targets: string[];
  seconds: number | null;
}

export function buildCriticalPath({
  targets,
  deps,
  toleranceMs = 60_000,
}: CriticalPathOptions): CriticalPath {
  const timed = targets.filter((t): t is Timed => t.startMs !== null && t.endMs !== null);
  const byName = new Map(timed.map((t) => [t.target, t]));
  const last = [...timed].sort((a, b) => b.endMs - a.endMs || a.target.localeCompare(b.target))[0];
  if (!last) return { targets: [], seconds: null };
  let current: Timed = last;
  const path = [current.target];
  for (;;) {
    const start = current.startMs;
    const candidates: Timed[] = [
      ...(deps[current.target] ?? []).flatMap((d) => byName.get(d) ?? []),
      ...previousOnNode(timed, current),
    ];
    const waitedFor: Timed | undefined = candidates
      .filter((c) => c.endMs <= start + toleranceMs && !path.includes(c.target))
      .sort((a, b) => b.endMs - a.endMs || a.target.localeCompare(b.target))[0];
    if (!waitedFor || start - waitedFor.endMs > toleranceMs) break;
    path.unshift(waitedFor.target);
    current = waitedFor;
  }
  return { targets: path, seconds: Math.round(last.endMs - current.startMs) / 1000 };
}

type Timed = TargetSummary & { startMs: number; endMs: number };

function previousOnNode(all: readonly Timed[], target: Timed): Timed[] {
  const before = all.filter(
    (t) => t.node === target.node && t.target !== target.target && t.startMs < target.startMs,
  );
  const previous = before.sort((a, b) => b.startMs - a.startMs)[0];
  return previous ? [previous] : [];
}
