import type { RunSideSpec, TimedTarget } from './make-run-side.js';

// Pairs of runs where a known cause (or two) was changed by a known amount, with every timeline worked out by hand
// below (start, build, upload bytes / node throughput, finish). Shared by the explanation's tests and
// scripts/evaluate-diff-explain.ts.
//
// The fleet: n1 uploads at 1e8 B/s, n2 at 5e7 B/s, n3 at 2e7 B/s (bytes ÷ upload seconds below); n3 has speed 0.5.
// The graph: base → {x, y, z, v}; y → w. Run A (makespan 331 s, critical path base → y → w):
//
//   n1: base 1 → 111 (100 build + 1e9 B / 1e8 = 10)   x 111 → 321 (200 + 10)
//   n2: y 111 → 281 (150 + 1e9 / 5e7 = 20)             w 281 → 331 (40 + 5e8 / 5e7 = 10)
//   n3: z 111 → 176 (60 + 1e8 / 2e7 = 5)               v 176 → 221 (40 + 5)
//
// n1's start delay is 1 s (measured start → base, which waits for nothing).

const NODES: RunSideSpec['nodes'] = [
  { name: 'n1', speed: 1, linkMbps: 800 },
  { name: 'n2', speed: 1, linkMbps: 400 },
  { name: 'n3', speed: 0.5, linkMbps: 160 },
];

const t = (
  target: string,
  node: string,
  waitFor: string[],
  [startS, buildS, uploadS, bytes]: [number, number, number, number],
): TimedTarget => ({
  target,
  node,
  waitFor,
  startS,
  buildS,
  uploadS,
  bytes,
  finishS: startS + buildS + uploadS,
});

export const RUN_A: RunSideSpec = {
  stamp: 'A',
  nodes: NODES,
  targets: [
    t('base', 'n1', [], [1, 100, 10, 1e9]),
    t('x', 'n1', ['base'], [111, 200, 10, 1e9]),
    t('y', 'n2', ['base'], [111, 150, 20, 1e9]),
    t('w', 'n2', ['y'], [281, 40, 10, 5e8]),
    t('z', 'n3', ['base'], [111, 60, 5, 1e8]),
    t('v', 'n3', ['base'], [176, 40, 5, 1e8]),
  ],
};

export interface Truth {
  /** The cause (player) that was changed, as the explanation names it. */
  cause: 'build' | 'upload-throughput' | 'placement' | 'waiting';
  subject?: string;
  /** Makespan change this cause makes alone (worked out by hand). */
  isolatedSeconds: number;
}

export interface SyntheticPair {
  name: string;
  b: RunSideSpec;
  /** B's makespan − A's, by hand. */
  deltaSeconds: number;
  truths: Truth[];
  /** B's critical path, by hand (for "on the critical path"). */
  criticalPathB: string[];
}

export const SYNTHETIC_PAIRS: SyntheticPair[] = [
  {
    name: 'build of critical-path target y +100 s',
    // y 111 → 381 (250 + 20), w 381 → 431.
    b: {
      stamp: 'B',
      nodes: NODES,
      targets: [
        t('base', 'n1', [], [1, 100, 10, 1e9]),
        t('x', 'n1', ['base'], [111, 200, 10, 1e9]),
        t('y', 'n2', ['base'], [111, 250, 20, 1e9]),
        t('w', 'n2', ['y'], [381, 40, 10, 5e8]),
        t('z', 'n3', ['base'], [111, 60, 5, 1e8]),
        t('v', 'n3', ['base'], [176, 40, 5, 1e8]),
      ],
    },
    deltaSeconds: 100,
    truths: [{ cause: 'build', subject: 'y', isolatedSeconds: 100 }],
    criticalPathB: ['base', 'y', 'w'],
  },
  {
    name: 'n2 upload throughput halved (5e7 → 2.5e7 B/s)',
    // y 111 → 301 (150 + 1e9 / 2.5e7 = 40), w 301 → 361 (40 + 20).
    b: {
      stamp: 'B',
      nodes: NODES,
      targets: [
        t('base', 'n1', [], [1, 100, 10, 1e9]),
        t('x', 'n1', ['base'], [111, 200, 10, 1e9]),
        t('y', 'n2', ['base'], [111, 150, 40, 1e9]),
        t('w', 'n2', ['y'], [301, 40, 20, 5e8]),
        t('z', 'n3', ['base'], [111, 60, 5, 1e8]),
        t('v', 'n3', ['base'], [176, 40, 5, 1e8]),
      ],
    },
    deltaSeconds: 30,
    truths: [{ cause: 'upload-throughput', subject: 'n2', isolatedSeconds: 30 }],
    criticalPathB: ['base', 'y', 'w'],
  },
  {
    name: 'placement: x and y swapped between n1 and n2',
    // n1: y 111 → 271 (150 + 1e9 / 1e8 = 10); n2: x 111 → 331 (200 + 1e9 / 5e7 = 20), w 331 → 381 (after x).
    b: {
      stamp: 'B',
      nodes: NODES,
      targets: [
        t('base', 'n1', [], [1, 100, 10, 1e9]),
        t('y', 'n1', ['base'], [111, 150, 10, 1e9]),
        t('x', 'n2', ['base'], [111, 200, 20, 1e9]),
        t('w', 'n2', ['y'], [331, 40, 10, 5e8]),
        t('z', 'n3', ['base'], [111, 60, 5, 1e8]),
        t('v', 'n3', ['base'], [176, 40, 5, 1e8]),
      ],
    },
    deltaSeconds: 50,
    truths: [{ cause: 'placement', isolatedSeconds: 50 }],
    criticalPathB: ['base', 'x', 'w'],
  },
  {
    name: 'placement: z moved from slow n3 (speed 0.5) to the end of n1',
    // n1: z 321 → 352 (60 × 0.5 / 1 = 30 build + 1e8 / 1e8 = 1); n3: v 111 → 156.
    b: {
      stamp: 'B',
      nodes: NODES,
      targets: [
        t('base', 'n1', [], [1, 100, 10, 1e9]),
        t('x', 'n1', ['base'], [111, 200, 10, 1e9]),
        t('z', 'n1', ['base'], [321, 30, 1, 1e8]),
        t('y', 'n2', ['base'], [111, 150, 20, 1e9]),
        t('w', 'n2', ['y'], [281, 40, 10, 5e8]),
        t('v', 'n3', ['base'], [111, 40, 5, 1e8]),
      ],
    },
    deltaSeconds: 21,
    truths: [{ cause: 'placement', isolatedSeconds: 21 }],
    criticalPathB: ['base', 'x', 'z'],
  },
  {
    name: 'bootstrap: n1 starts 60 s later',
    // Everything 60 s later: base 61 → 171, ..., w 341 → 391.
    b: {
      stamp: 'B',
      nodes: NODES,
      targets: [
        t('base', 'n1', [], [61, 100, 10, 1e9]),
        t('x', 'n1', ['base'], [171, 200, 10, 1e9]),
        t('y', 'n2', ['base'], [171, 150, 20, 1e9]),
        t('w', 'n2', ['y'], [341, 40, 10, 5e8]),
        t('z', 'n3', ['base'], [171, 60, 5, 1e8]),
        t('v', 'n3', ['base'], [236, 40, 5, 1e8]),
      ],
    },
    deltaSeconds: 60,
    truths: [{ cause: 'waiting', isolatedSeconds: 60 }],
    criticalPathB: ['base', 'y', 'w'],
  },
  {
    name: 'two causes: y build +50 s and n1 throughput halved',
    // Alone, y +50: y 111 → 331, w 331 → 381 (+50). Alone, n1 at 5e7: base 1 → 121, x 121 → 341, y 121 → 291,
    // w 291 → 341 (+10). Both: base 1 → 121, x 121 → 341, y 121 → 341 (200 + 20), w 341 → 391 (+60).
    b: {
      stamp: 'B',
      nodes: NODES,
      targets: [
        t('base', 'n1', [], [1, 100, 20, 1e9]),
        t('x', 'n1', ['base'], [121, 200, 20, 1e9]),
        t('y', 'n2', ['base'], [121, 200, 20, 1e9]),
        t('w', 'n2', ['y'], [341, 40, 10, 5e8]),
        t('z', 'n3', ['base'], [121, 60, 5, 1e8]),
        t('v', 'n3', ['base'], [186, 40, 5, 1e8]),
      ],
    },
    deltaSeconds: 60,
    truths: [
      { cause: 'build', subject: 'y', isolatedSeconds: 50 },
      { cause: 'upload-throughput', subject: 'n1', isolatedSeconds: 10 },
    ],
    criticalPathB: ['base', 'y', 'w'],
  },
  {
    name: 'two causes: n1 starts 20 s later and w build +25 s',
    // Alone, n1 +20: everything +20 → 351. Alone, w +25: w 281 → 356 (65 + 10). Both: base 21 → 131,
    // y 131 → 301, w 301 → 376 (+45); x 131 → 341.
    b: {
      stamp: 'B',
      nodes: NODES,
      targets: [
        t('base', 'n1', [], [21, 100, 10, 1e9]),
        t('x', 'n1', ['base'], [131, 200, 10, 1e9]),
        t('y', 'n2', ['base'], [131, 150, 20, 1e9]),
        t('w', 'n2', ['y'], [301, 65, 10, 5e8]),
        t('z', 'n3', ['base'], [131, 60, 5, 1e8]),
        t('v', 'n3', ['base'], [196, 40, 5, 1e8]),
      ],
    },
    deltaSeconds: 45,
    truths: [
      { cause: 'waiting', isolatedSeconds: 20 },
      { cause: 'build', subject: 'w', isolatedSeconds: 25 },
    ],
    criticalPathB: ['base', 'y', 'w'],
  },
  {
    name: 'start lag: w starts 15 s after y finished',
    // Only w moves: 296 → 346 (40 + 10), its start lag 15 s (a dispatch that waited).
    b: {
      stamp: 'B',
      nodes: NODES,
      targets: [
        t('base', 'n1', [], [1, 100, 10, 1e9]),
        t('x', 'n1', ['base'], [111, 200, 10, 1e9]),
        t('y', 'n2', ['base'], [111, 150, 20, 1e9]),
        t('w', 'n2', ['y'], [296, 40, 10, 5e8]),
        t('z', 'n3', ['base'], [111, 60, 5, 1e8]),
        t('v', 'n3', ['base'], [176, 40, 5, 1e8]),
      ],
    },
    deltaSeconds: 15,
    truths: [{ cause: 'waiting', isolatedSeconds: 15 }],
    criticalPathB: ['base', 'y', 'w'],
  },
];

/**
 * Two causes whose effects overlap: x (off the path, 10 s of slack) +30 s and w +20 s. Alone, either makes the
 * makespan 351 (+20); together, still 351: x 111 → 351 (230 + 10), w 281 → 351 (60 + 10). No split can give each
 * its isolated effect (they sum to 40, the change is 20); Shapley gives each half of the overlap, 10.
 */
export const INTERACTING_PAIR: SyntheticPair = {
  name: 'overlapping causes: x build +30 s and w build +20 s, either alone +20 s',
  b: {
    stamp: 'B',
    nodes: NODES,
    targets: [
      t('base', 'n1', [], [1, 100, 10, 1e9]),
      t('x', 'n1', ['base'], [111, 230, 10, 1e9]),
      t('y', 'n2', ['base'], [111, 150, 20, 1e9]),
      t('w', 'n2', ['y'], [281, 60, 10, 5e8]),
      t('z', 'n3', ['base'], [111, 60, 5, 1e8]),
      t('v', 'n3', ['base'], [176, 40, 5, 1e8]),
    ],
  },
  deltaSeconds: 20,
  truths: [
    { cause: 'build', subject: 'x', isolatedSeconds: 20 },
    { cause: 'build', subject: 'w', isolatedSeconds: 20 },
  ],
  criticalPathB: ['base', 'x'],
};
