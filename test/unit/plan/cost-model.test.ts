import { describe, expect, it } from 'vitest';
import { toBuildSeconds, toExportSeconds } from '../../../src/plan/cost-model.js';

// The spec's figures: triton-wheel has 15m48s of steps and a 6.4 GB export.
const triton = { buildSeconds: 948, cacheBytes: 6_400_000_000 };

describe('cost model', () => {
  it.each([
    { node: 'strix', linkMbps: 900, exportSeconds: 7.111 },
    { node: 'forge', linkMbps: 112, exportSeconds: 57.143 },
    { node: 'kiln', linkMbps: 4.3, exportSeconds: 1488.372 },
  ])(
    'exports 6.4 GB from $node ($linkMbps MB/s) in $exportSeconds s',
    ({ node, linkMbps, exportSeconds }) => {
      expect(toExportSeconds(triton, { name: node, builder: node, linkMbps, speed: 1 })).toBeCloseTo(
        exportSeconds,
        3,
      );
    },
  );

  it('divides the build term by the node speed and adds the export term', () => {
    const node = { name: 'n', builder: 'n', linkMbps: 100, speed: 1.2 };
    expect(toBuildSeconds(triton, node)).toBeCloseTo(790, 9);
    expect(toExportSeconds(triton, node)).toBeCloseTo(64, 9);
    expect(toBuildSeconds(triton, node) + toExportSeconds(triton, node)).toBeCloseTo(854, 9);
  });
});
