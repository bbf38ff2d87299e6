import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type FetchMetrics } from '../../../../src/collect/index.js';
import { sampleNodeOnce } from '../../../../src/collect/node-exporter/sampler.js';
import { createFakeClock } from '../../../helpers/fake-clock.js';
import { HttpError } from '../../../../src/shared/errors.js';

const scrapeA = readFileSync(
  new URL('../../../fixtures/node-exporter/debian-defaults-a.prom', import.meta.url),
  'utf8',
);
const scrapeB = readFileSync(
  new URL('../../../fixtures/node-exporter/debian-defaults-b.prom', import.meta.url),
  'utf8',
);
const node = { name: 'strix', url: 'http://strix:9100/metrics' };

function contextWith(fetchMetrics: FetchMetrics, clock = createFakeClock(1_000)) {
  return { fetchMetrics, clock, timeoutMs: 200, dispatcher: undefined, signal: new AbortController().signal };
}

describe('sampleNodeOnce', () => {
  it('turns two successive scrapes into a first sample without rates and a second with rates', async () => {
    const pages = [scrapeA, scrapeB];
    const clock = createFakeClock(1_000);
    const context = contextWith(async () => Promise.resolve(pages.shift() ?? ''), clock);
    const first = await sampleNodeOnce(node, undefined, context);
    clock.advance(2_000);
    const second = await sampleNodeOnce(node, first.snapshot, context);
    expect(first.sample).toMatchObject({
      node: 'strix',
      tsMs: 1_000,
      ok: true,
      cpuBusyPct: null,
      load1: 5.3,
    });
    expect(second.sample).toMatchObject({ node: 'strix', tsMs: 3_000, ok: true, load1: 5.12 });
    expect(second.sample.ok && second.sample.cpuBusyPct).toBeGreaterThan(0);
  });

  it('records a refused connection as a gap with the error', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.9:9100'), { code: 'ECONNREFUSED' });
    const outcome = await sampleNodeOnce(
      node,
      undefined,
      contextWith(() => Promise.reject(refused)),
    );
    expect(outcome).toEqual({
      sample: {
        version: 1,
        node: 'strix',
        tsMs: 1_000,
        ok: false,
        error: 'http://strix:9100/metrics: connect ECONNREFUSED 10.0.0.9:9100',
      },
      snapshot: undefined,
    });
  });

  it('records an HTTP error status as a gap', async () => {
    const fail: FetchMetrics = (url) =>
      Promise.reject(new HttpError(url, 500, 'answered HTTP 500; expected 200 with the metrics text'));
    const outcome = await sampleNodeOnce(node, undefined, contextWith(fail));
    expect(outcome.sample).toMatchObject({
      ok: false,
      error: 'http://strix:9100/metrics: answered HTTP 500; expected 200 with the metrics text',
    });
  });

  it('records a scrape that does not finish within the timeout as a gap', async () => {
    const hang: FetchMetrics = (_url, { signal }) =>
      new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
    const outcome = await sampleNodeOnce(node, undefined, contextWith(hang));
    expect(outcome.sample).toMatchObject({
      ok: false,
      error: 'http://strix:9100/metrics: no complete answer within 200 ms',
    });
  });

  it('records a page with bytes but no samples as a gap, not as zeros', async () => {
    const outcome = await sampleNodeOnce(
      node,
      undefined,
      contextWith(() => Promise.resolve('<html>login</html>\n')),
    );
    expect(outcome.sample.ok).toBe(false);
    expect(outcome.sample.ok === false && outcome.sample.error).toMatch(/found no records \(1 rejected\)/);
  });
});
