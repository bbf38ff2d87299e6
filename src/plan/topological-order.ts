import { invert } from './list-schedule.js';

// Kahn's order over index constraints: j comes after every index in before[j]. The last target to become ready
// is taken first (a stack), so the order is deterministic. Whatever a cycle blocks is returned as `stuck`;
// callers say what the cycle means for them.

export function toTopologicalOrder(
  before: readonly (readonly number[])[],
  n: number,
): { order: number[]; stuck: number[] } {
  const after = invert(before, n);
  const waiting = before.map((list) => list.length);
  const ready = waiting.flatMap((count, j) => (count === 0 ? [j] : []));
  const order: number[] = [];
  while (ready.length > 0) {
    const j = ready.pop()!;
    order.push(j);
    for (const k of after[j]!) if (--waiting[k]! === 0) ready.push(k);
  }
  return { order, stuck: waiting.flatMap((count, j) => (count > 0 ? [j] : [])) };
}
