import { describe, expect, it } from 'vitest';
import { createMinHeap } from '../../../src/plan/min-heap.js';
import { createRandom } from '../../../src/shared/random.js';

// The heap behind the planner's Kahn orders must give exactly what the sort it replaced gave: at each step, the
// ready index of the lowest key. Held to that sort (written here) over random pushes and pops with distinct keys.

describe('createMinHeap', () => {
  it('pops in the order a sort of the ready list would, interleaved with pushes', () => {
    const random = createRandom(36);
    for (let round = 0; round < 50; round++) {
      const n = 1 + random.int(300);
      const keys = Array.from({ length: n }, (_, j) => j).sort(() => random.next() - 0.5);
      const heap = createMinHeap((j) => keys[j]!);
      const reference: number[] = [];
      let next = 0;
      const popped: number[] = [];
      const expected: number[] = [];
      while (next < n || heap.size > 0) {
        const pushes = next < n ? random.int(4) + (heap.size === 0 ? 1 : 0) : 0;
        for (let p = 0; p < pushes && next < n; p++, next++) {
          heap.push(next);
          reference.push(next);
        }
        if (heap.size === 0) continue;
        reference.sort((a, b) => keys[b]! - keys[a]!);
        expected.push(reference.pop()!);
        popped.push(heap.pop());
        expect(heap.size).toBe(reference.length);
      }
      expect(popped).toEqual(expected);
      expect([...popped].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, j) => j));
    }
  });
});
