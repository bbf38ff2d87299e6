import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SampleSchema } from '../../../../src/artifacts/index.js';
import {
  buildSamplesQuery,
  SAMPLE_FIGURES,
  toExactAlternation,
} from '../../../../src/collect/prometheus/build-samples-query.js';
import {
  parsePrometheusResponse,
  type FigurePoints,
} from '../../../../src/collect/prometheus/parse-prometheus-response.js';
import {
  toPrometheusSamples,
  toRangeSteps,
} from '../../../../src/collect/prometheus/to-prometheus-samples.js';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../fixtures/prometheus/${name}`, import.meta.url), 'utf8'));
const node = { name: 'forge', instance: '127.0.0.1:19111' };
const source = 'prometheus http://127.0.0.1:19090';

function pointsOf(name: string): FigurePoints {
  const parsed = parsePrometheusResponse(fixture(name));
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.points;
}

describe('buildSamplesQuery', () => {
  const query = buildSamplesQuery({ instances: ['forge:9100', 'a.b:9100'], stepMs: 2000 });

  it('tags one part per figure and unions them', () => {
    for (const figure of SAMPLE_FIGURES) expect(query).toContain(`"figure", "${figure}", "", "")`);
    expect(query.split('\nor ')).toHaveLength(SAMPLE_FIGURES.length);
  });

  it('selects the instances exactly (dots escaped for RE2, backslashes for the PromQL string)', () => {
    expect(toExactAlternation(['a.b:9100', 'x|y'])).toBe('a\\.b:9100|x\\|y');
    expect(query).toContain('instance=~"forge:9100|a\\\\.b:9100"');
  });

  it('takes counter deltas over exactly one step, without rate() extrapolation', () => {
    expect(query).toContain(
      'sum by (instance) (node_cpu_seconds_total{instance=~"forge:9100|a\\\\.b:9100"} - node_cpu_seconds_total{instance=~"forge:9100|a\\\\.b:9100"} offset 2000ms)',
    );
    expect(query).not.toMatch(/\brate\(|\bincrease\(/);
    expect(query).toContain('max_over_time(up{instance=~"forge:9100|a\\\\.b:9100"}[2000ms])');
  });

  it("applies compute-rates.ts's device filters and idle modes", () => {
    expect(query).toContain('device!~"(lo|veth.*|docker0|br-.*)"');
    expect(query).toContain('device!~"(dm-\\\\d+|md\\\\d+|loop\\\\d+|z?ram\\\\d+');
    expect(query).toContain('mode=~"idle|iowait"');
    expect(query).toContain('node_memory_MemAvailable_bytes{instance=~"forge:9100|a\\\\.b:9100"} or (');
  });
});

describe('toPrometheusSamples on a recorded query_range answer with a scrape gap', () => {
  const stepsMs = toRangeSteps({ startMs: 1796391996000, endMs: 1796392018000, stepMs: 2000 });
  const samples = toPrometheusSamples({
    nodes: [node],
    stepsMs,
    stepMs: 2000,
    points: pointsOf('range-with-scrape-gap.json'),
    source,
  });

  it('writes one schema-valid line per step, gaps where node_exporter was down', () => {
    expect(samples).toHaveLength(12);
    for (const sample of samples) expect(SampleSchema.safeParse(sample).success).toBe(true);
    expect(samples.map((sample) => (sample.ok ? 'ok' : 'gap'))).toEqual([
      'ok',
      'ok',
      'ok',
      'ok',
      'ok',
      'gap',
      'gap',
      'gap',
      'ok',
      'ok',
      'ok',
      'ok',
    ]);
    expect(samples[5]).toEqual({
      version: 1,
      node: 'forge',
      tsMs: 1796392006000,
      ok: false,
      error:
        'prometheus http://127.0.0.1:19090 recorded only failed scrapes (up = 0) of instance "127.0.0.1:19111" in the 2000 ms before this step',
    });
  });

  it('computes the figures as compute-rates.ts does from the same deltas', () => {
    // From the fixture at 1796391996: cpuTotal 4.03 s, cpuIdle, netRx, timeDelta 2.0169777870178223 s.
    const first = samples[0];
    if (!first?.ok) throw new Error('expected an ok sample');
    const raw = pointsOf('range-with-scrape-gap.json').get(node.instance);
    const at = (figure: (typeof SAMPLE_FIGURES)[number]) => raw?.get(figure)?.get(1796391996000) ?? NaN;
    expect(first.cpuBusyPct).toBeCloseTo((100 * (at('cpuTotal') - at('cpuIdle'))) / at('cpuTotal'), 9);
    expect(first.memUsedPct).toBeCloseTo(100 * (1 - at('memAvailable') / at('memTotal')), 9);
    expect(first.netRxBps).toBeCloseTo(at('netRx') / 2.0169777870178223, 6);
    expect(first.diskWriteBps).toBeCloseTo(at('diskWrite') / at('timeDelta'), 6);
    expect(first.load1).toBe(at('load1'));
  });

  it('after the gap, gauges come back at once and rates one step later (their offset point is stale)', () => {
    expect(samples[8]).toMatchObject({ ok: true, cpuBusyPct: null, netRxBps: null });
    expect(samples[8]?.ok && samples[8].memUsedPct).toBeGreaterThan(0);
    expect(samples[9]?.ok && samples[9].cpuBusyPct).not.toBeNull();
  });

  it('a node whose instance has no series is a gap at every step', () => {
    const lost = toPrometheusSamples({
      nodes: [{ name: 'wifi', instance: 'wifi:9100' }],
      stepsMs: [1796391996000],
      stepMs: 2000,
      points: pointsOf('range-with-scrape-gap.json'),
      source,
    });
    expect(lost[0]).toMatchObject({
      ok: false,
      error: expect.stringContaining('has no scrape of instance "wifi:9100"') as string,
    });
  });
});

describe('toPrometheusSamples rules', () => {
  const one = (values: Partial<Record<(typeof SAMPLE_FIGURES)[number], number>>) => {
    const points: FigurePoints = new Map([
      [
        node.instance,
        new Map(
          Object.entries(values).map(([figure, value]) => [
            figure as (typeof SAMPLE_FIGURES)[number],
            new Map([[1000, value]]),
          ]),
        ),
      ],
    ]);
    return toPrometheusSamples({ nodes: [node], stepsMs: [1000], stepMs: 2000, points, source })[0];
  };
  const base = {
    up: 1,
    cpuTotal: 8,
    cpuIdle: 2,
    cpuMin: 0,
    netRx: 4000,
    netRxMin: 0,
    timeDelta: 2,
    memTotal: 100,
    memAvailable: 25,
    load1: 1.5,
  };

  it.each([
    ['the plain case', {}, { cpuBusyPct: 75, netRxBps: 2000, memUsedPct: 75, diskReadBps: null }],
    ['a counter that went backwards nulls its figure', { netRxMin: -5 }, { netRxBps: null, cpuBusyPct: 75 }],
    ['a reboot nulls every rate', { bootDelta: 30 }, { netRxBps: null, cpuBusyPct: null, memUsedPct: 75 }],
    ['no node_time_seconds delta: Δt = the step', { timeDelta: undefined }, { netRxBps: 2000 }],
    ['no idle series: CPU null, not 100', { cpuIdle: undefined }, { cpuBusyPct: null }],
  ])('%s', (_name, change, expected) => {
    const values = { ...base, ...change } as Record<string, number | undefined>;
    const defined = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
    expect(one(defined)).toMatchObject({ ok: true, ...expected });
  });
});

describe('parsePrometheusResponse', () => {
  it('reads an instant (vector) answer', () => {
    const points = pointsOf('instant-one-node.json');
    expect(points.get(node.instance)?.get('up')?.get(1796392016000)).toBe(1);
  });

  it.each([
    [
      { status: 'error', errorType: 'bad_data', error: 'parse error at char 3' },
      'bad_data: parse error at char 3',
    ],
    [
      { status: 'success', data: { resultType: 'scalar', result: [1, '2'] } },
      'expected a matrix or vector result, got scalar',
    ],
    ['<html>', 'not a Prometheus API answer'],
  ])('refuses %j', (json, error) => {
    expect(parsePrometheusResponse(json)).toEqual({
      ok: false,
      error: expect.stringContaining(error) as string,
    });
  });
});
