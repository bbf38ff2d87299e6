import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunFileSchema, type Sample } from '../../../../src/artifacts/index.js';
import type { PrometheusSampler } from '../../../../src/collect/index.js';
import { PreflightError } from '../../../../src/shared/errors.js';
import type { PreflightProbes } from '../../../../src/run/harness/preflight/preflight.js';
import { startHarness, writeFleetFixture } from '../../../helpers/harness-fixture.js';

// fleet.yaml `samples.prometheus`: preflight asks Prometheus, the live lines are replaced by the window's.

let fixture: ReturnType<typeof writeFleetFixture>;
beforeEach(() => {
  fixture = writeFleetFixture();
  appendFileSync(fixture.fleetPath, 'samples:\n  prometheus: http://prom.test:9090\n');
});
afterEach(() => fixture.remove());

const line = (node: string, tsMs: number, ok: boolean): Sample =>
  ok
    ? {
        version: 1,
        node,
        tsMs,
        ok: true,
        cpuBusyPct: 50,
        memUsedPct: 10,
        diskReadBps: 0,
        diskWriteBps: 0,
        netRxBps: 1,
        netTxBps: 1,
        load1: 1,
      }
    : { version: 1, node, tsMs, ok: false, error: 'prometheus http://prom.test:9090 has no scrape' };

function start(
  prometheusInstances: PreflightProbes['prometheusInstances'],
  prometheusScrapeIntervals?: PreflightProbes['prometheusScrapeIntervals'],
) {
  const window = [line('forge', 1000, true), line('kiln', 1000, false)];
  const createPrometheusSampler = (options: { onSample: (sample: Sample) => void }): PrometheusSampler => ({
    start: () => options.onSample(line('forge', 5, true)),
    stop: () => Promise.resolve(),
    fetchWindow: () => Promise.resolve(window),
  });
  const { promise } = startHarness({
    fixture,
    effects: (fake) => ({
      createProbes: async (context) => ({
        ...(await fake.effects.createProbes!(context)),
        prometheusInstances,
        ...(prometheusScrapeIntervals ? { prometheusScrapeIntervals } : {}),
      }),
      createPrometheusSampler,
      createSampler: () => {
        throw new Error('the scrape sampler must not run when Prometheus is the source');
      },
    }),
  });
  return { promise, window };
}

describe('runHarness with Prometheus as the sample source', () => {
  it('replaces the live lines with the window, and warns loudly about a node without series', async () => {
    const { promise, window } = start(() => Promise.resolve(new Set(['forge.test:9100', 'anvil.test:9100'])));
    const result = await promise;
    expect(result.exitCode).toBe(0);
    const text = readFileSync(path.join(result.runDir, 'samples.jsonl'), 'utf8');
    expect(
      text
        .trim()
        .split('\n')
        .map((one) => JSON.parse(one) as unknown),
    ).toEqual(window);
    const run = RunFileSchema.parse(JSON.parse(readFileSync(path.join(result.runDir, 'run.json'), 'utf8')));
    expect(run.warnings).toContainEqual(
      expect.stringContaining('has no series with instance="kiln.test:9100" for node kiln'),
    );
    expect(run.samples).toEqual({
      source: 'prometheus',
      intervalMs: 10,
      prometheusUrl: 'http://prom.test:9090',
    });
  }, 30_000);

  it('warns when Prometheus scrapes a node less often than the run samples it', async () => {
    const intervals = new Map([
      ['forge.test:9100', 15_000],
      ['anvil.test:9100', 5],
    ]);
    const { promise } = start(
      () => Promise.resolve(new Set(['forge.test:9100', 'anvil.test:9100', 'kiln.test:9100'])),
      () => Promise.resolve(intervals),
    );
    const run = RunFileSchema.parse(
      JSON.parse(readFileSync(path.join((await promise).runDir, 'run.json'), 'utf8')),
    );
    expect(run.warnings).toContainEqual(
      'samples every 0.01 s, but Prometheus at http://prom.test:9090 scrapes forge every 15 s: most samples will repeat the last scrape, so peaks shorter than a scrape interval are not seen. Fix: --sample-interval-ms at least the scrape interval, or a shorter scrape_interval for these targets',
    );
  }, 30_000);

  it('refuses to start when Prometheus does not answer, naming the URL and the fix', async () => {
    const error = await start(() => Promise.reject(new Error('connect ECONNREFUSED'))).promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(PreflightError);
    expect((error as PreflightError).problems).toEqual([
      expect.stringMatching(
        /^Prometheus at http:\/\/prom\.test:9090 \(samples\.prometheus\) does not answer a query: connect ECONNREFUSED\. Fix: start it or correct samples\.prometheus/,
      ) as string,
    ]);
  });
});
