// A binary min-heap of target indices by a numeric key, for the Kahn orders that always take the ready target with
// the lowest key (was a sort of the whole ready list at every step: O(n² log n) at 1,000 targets). Keys must be
// distinct for the order to be the sort's; the callers' keys are an index or a rank. Pure.

export interface MinHeap {
  push(index: number): void;
  /** The index with the lowest key; the heap must not be empty. */
  pop(): number;
  readonly size: number;
}

export function createMinHeap(keyOf: (index: number) => number): MinHeap {
  const items: number[] = [];
  return {
    get size() {
      return items.length;
    },
    push(index) {
      const key = keyOf(index);
      let at = items.push(index) - 1;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (keyOf(items[parent]!) <= key) break;
        items[at] = items[parent]!;
        at = parent;
      }
      items[at] = index;
    },
    pop() {
      const top = items[0]!;
      const last = items.pop()!;
      if (items.length > 0) {
        const key = keyOf(last);
        let at = 0;
        for (;;) {
          const left = 2 * at + 1;
          if (left >= items.length) break;
          const right = left + 1;
          const child = right < items.length && keyOf(items[right]!) < keyOf(items[left]!) ? right : left;
          if (keyOf(items[child]!) >= key) break;
          items[at] = items[child]!;
          at = child;
        }
        items[at] = last;
      }
      return top;
    },
  };
}
