import { describe, expect, it } from 'vitest';
import { findPromqlSelectors } from '../../../src/contracts/find-promql-selectors.js';

const names = (expr: string) =>
  findPromqlSelectors(expr).map((s) => (s.labels.length ? `${s.name}{${s.labels.join(',')}}` : s.name));

describe('findPromqlSelectors', () => {
  it.each([
    ['a bare name', 'rocm_perf_makespan_seconds', ['rocm_perf_makespan_seconds']],
    [
      'matchers, strings with brackets and operators',
      'x{runs_ago=~"[1-5]", lane!="a{b}"} > 1',
      ['x{runs_ago,lane}'],
    ],
    ['aggregation with grouping first', 'quantile without (runs_ago) (0.5, prev_seconds)', ['prev_seconds']],
    ['aggregation with grouping after', 'sum(rate(a_total[5m])) by (lane, job)', ['a_total']],
    [
      'binary keywords, on/ignoring/group_left lists',
      'a > on(lane) group_left(node) b and ignoring(x) c unless d',
      ['a', 'b', 'c', 'd'],
    ],
    [
      'numbers, durations, offsets, bool',
      'a offset 1h30m > bool 1e6 * 2 * 86400 or b[5m:1m] == 0x1f',
      ['a', 'b'],
    ],
    [
      'functions and recorded names with colons',
      'time() - max_over_time(lane:x_seconds:median[1d])',
      ['lane:x_seconds:median'],
    ],
    ['comments and single-quoted strings', "a # b c\n+ label_replace(d, 'e', 'f g', 'h', '.*')", ['a', 'd']],
    ['a nameless selector names nothing', '{__name__="a"} + vector(1)', []],
    ['Inf and NaN are numbers', 'a > Inf or b != NaN', ['a', 'b']],
  ])('%s', (_case, expr, expected) => {
    expect(names(expr)).toEqual(expected);
  });

  it('gives each name its offset in the expression', () => {
    expect(findPromqlSelectors('  a +\n b').map((s) => s.offset)).toEqual([2, 7]);
  });
});
