import { describe, expect, it } from 'vitest';
import { buildTrends, renderTrendsHtml } from '../../../src/trends/index.js';
import { renderSparklineSvg } from '../../../src/trends/render-sparkline-svg.js';
import { type TrendRun } from '../../../src/trends/build-trends.js';

const run = (stamp: string, makespanSeconds: number, build: number, harness = 'warm'): TrendRun => ({
  stamp,
  harness,
  lane: 'fleet',
  forecast: null,
  status: 'completed',
  makespanSeconds,
  targets: [
    { target: 'py<torch>', status: 'ok', startMs: 0, endMs: 1, buildSeconds: build, uploadBytes: 1e9 },
  ],
});

describe('renderSparklineSvg', () => {
  it('draws one polyline per unbroken stretch, red dots on flagged points and a dot on the last', () => {
    const svg = renderSparklineSvg({
      values: [10, 20, null, 30, 40],
      flagged: [false, false, false, false, true],
      title: 'a & b',
      width: 100,
      height: 20,
    });
    expect(svg.match(/<polyline /g)).toHaveLength(2);
    expect(svg).toContain('points="3,13.5 26.5,10"');
    expect(svg).toContain('<circle cx="97" cy="3" r="3" fill="#c0392b">');
    expect(svg).toContain('aria-label="a &#38; b"');
  });

  it('draws a single value as a dot and nothing for no values', () => {
    expect(renderSparklineSvg({ values: [5], title: 't' })).toContain('<circle cx="3"');
    expect(renderSparklineSvg({ values: [null, null], title: 't' })).not.toMatch(/<polyline|<circle/);
  });
});

describe('renderTrendsHtml', () => {
  const trends = buildTrends({
    runs: [
      run('20260301T000000Z', 1000, 100),
      run('20260302T000000Z', 1000, 100),
      run('20260303T000000Z', 1000, 100),
      run('20260304T000000Z', 2000, 100),
      run('20260305T000000Z', 700, 70, 'cold'),
    ],
  });
  const html = renderTrendsHtml({
    trends,
    indexHref: './',
    runHref: (s) => `runs/${s}/`,
    notes: ['x left out: bad <run.json>'],
  });

  it('has a section per harness, links back to the index, states the rule', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<a href="./">← all runs</a>');
    expect(html).toContain('<section id="harness-cold">');
    expect(html).toContain('<h2>warm harness, lane fleet — 4 runs</h2>');
    expect(html).toContain(
      'more than 10% and more than 30 s (bytes: 100 MB) above the median of the previous 5 runs of the same harness that have it (at least 3)',
    );
    expect(html.indexOf('harness-cold')).toBeLessThan(html.indexOf('harness-warm'));
  });

  it('flags the latest run’s regression with a link to the run', () => {
    expect(html).toContain('<strong class="flag">1 regression(s) in the latest run</strong>');
    expect(html).toContain(
      '<li><a href="runs/20260304T000000Z/">20260304T000000Z</a>: makespan 33m20s vs median 16m40s (+100%)</li>',
    );
    expect(html).toContain('No regression in the latest run (20260305T000000Z).');
  });

  it('escapes names and notes, and has no script', () => {
    expect(html).toContain('<th scope="row">py&#60;torch&#62;</th>');
    expect(html).toContain('<p class="note">x left out: bad &#60;run.json&#62;</p>');
    expect(html).not.toContain('<script');
  });

  it('says so when there are no runs', () => {
    expect(
      renderTrendsHtml({ trends: buildTrends({ runs: [] }), indexHref: '/', runHref: (s) => s }),
    ).toContain('<p>No finished runs yet.</p>');
  });
});
