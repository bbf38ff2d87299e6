// The run dir's size estimated from the plan, and the preflight problem when the run root cannot hold it.
import { describe, expect, it } from 'vitest';
import { estimateRunDir, findDiskProblem } from '../../../../../src/run/harness/record/estimate-run-dir.js';

describe('estimateRunDir', () => {
  it('adds the samples, the log slices and the per-target files, each from the plan', () => {
    const estimate = estimateRunDir({
      makespanSeconds: 3600,
      nodes: 5,
      sampleIntervalMs: 2000,
      buildSeconds: [600, 60],
    });
    // 1,800 scrapes × 5 nodes × 300 B; 3,600 s × 50 kB/s; 2 × 1 MB + 660 s × 1 kB/s; the 8 MB reserve.
    expect(estimate).toEqual({
      samplesBytes: 2_700_000,
      logBytes: 180_000_000,
      targetBytes: 2_660_000,
      totalBytes: 193_360_000,
    });
  });

  it('names the free space, the estimate by part, and the fix when the root is too small; nothing when it fits', () => {
    const estimate = estimateRunDir({
      makespanSeconds: 6 * 3600,
      nodes: 24,
      sampleIntervalMs: 1000,
      buildSeconds: [3600],
    });
    const problem = findDiskProblem({
      root: '/var/tmp/rocm-perf',
      freeBytes: 500e6,
      estimate,
      makespanSeconds: 6 * 3600,
    });
    expect(problem).toBe(
      'run root /var/tmp/rocm-perf has 500 MB free; this run needs about 1249 MB (log slices 1080 MB, samples 156 MB, traces and status 5 MB over a planned 6.0 h, and 8 MB set aside for finalizing). Fix: free space there, or run with --root (PERF_ROOT) on a larger disk',
    );
    expect(
      findDiskProblem({ root: '/r', freeBytes: 2e9, estimate, makespanSeconds: 6 * 3600 }),
    ).toBeUndefined();
  });
});
