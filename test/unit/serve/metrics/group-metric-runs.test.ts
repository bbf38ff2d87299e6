import { describe, expect, it } from 'vitest';
import { groupMetricRuns, type MetricRunEntry } from '../../../../src/serve/metrics/group-metric-runs.js';

const entry = (dir: string, patch: Partial<MetricRunEntry> = {}): MetricRunEntry => ({
  stamp: dir,
  dir: `/runs/${dir}`,
  lane: 'fleet',
  harness: 'warm',
  arch: 'gfx1201',
  status: 'completed',
  ...patch,
});

describe('groupMetricRuns', () => {
  it('picks per lane, harness and arch the newest completed run and up to 5 before it, never mixing them', () => {
    const groups = groupMetricRuns([
      entry('r9', { status: 'running' }),
      entry('r8', { status: 'failed' }),
      entry('r7'),
      entry('c7', { harness: 'cold' }),
      entry('a7', { lane: 'nightly-aws' }),
      entry('g7', { arch: 'gfx942' }),
      entry('r6', { status: 'interrupted' }),
      ...['r5', 'r4', 'r3', 'r2', 'r1', 'r0'].map((dir) => entry(dir)),
    ]);
    expect(groups.map((g) => [g.lane, g.harness, g.arch, g.dirs.map((d) => d.slice(6))])).toEqual([
      ['fleet', 'warm', 'gfx1201', ['r7', 'r5', 'r4', 'r3', 'r2', 'r1']],
      ['fleet', 'cold', 'gfx1201', ['c7']],
      ['nightly-aws', 'warm', 'gfx1201', ['a7']],
      ['fleet', 'warm', 'gfx942', ['g7']],
    ]);
  });

  it('has no group for a lane whose runs never completed', () => {
    expect(groupMetricRuns([entry('r1', { status: 'failed' }), entry('r0', { status: 'running' })])).toEqual(
      [],
    );
  });
});
