import { describe, expect, it } from 'vitest';
import {
  parsePrometheusDuration,
  parseScrapeIntervals,
} from '../../../../src/collect/prometheus/parse-scrape-intervals.js';

// /api/v1/targets as Prometheus answers it (the shape of its HTTP API docs), trimmed to the fields we read.

describe('parsePrometheusDuration', () => {
  it.each([
    ['15s', 15_000],
    ['1m30s', 90_000],
    ['500ms', 500],
    ['1h', 3_600_000],
  ])('%s → %d ms', (text, ms) => expect(parsePrometheusDuration(text)).toBe(ms));
  it.each(['', '15', 's', '15 s', '1.5s'])('%j is not a duration', (text) =>
    expect(parsePrometheusDuration(text)).toBeUndefined(),
  );
});

describe('parseScrapeIntervals', () => {
  it('by instance, the longest interval of its active targets; targets without one are left out', () => {
    const answer = {
      status: 'success',
      data: {
        activeTargets: [
          { labels: { instance: 'forge:9100', job: 'node' }, scrapeInterval: '15s', health: 'up' },
          { labels: { instance: 'forge:9100', job: 'slow' }, scrapeInterval: '1m' },
          { labels: { instance: 'kiln:9100', job: 'node' }, scrapeInterval: '1s' },
          { labels: { instance: 'old:9100', job: 'node' } },
        ],
        droppedTargets: [],
      },
    };
    expect(parseScrapeIntervals(answer)).toEqual({
      ok: true,
      intervals: new Map([
        ['forge:9100', 60_000],
        ['kiln:9100', 1_000],
      ]),
    });
  });
  it('an API error, or an answer of another shape, says so', () => {
    expect(parseScrapeIntervals({ status: 'error', errorType: 'bad_data', error: 'nope' })).toEqual({
      ok: false,
      error: 'bad_data: nope',
    });
    expect(parseScrapeIntervals({ status: 'success', data: {} })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^not a \/api\/v1\/targets answer/) as string,
    });
  });
});
