import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataFileSchema, type DataFile } from '../../src/artifacts/index.js';
import { writeFixtureRun } from '../../scripts/make-fixture-run.js';
import {
  createTempDir,
  startPrometheus,
  type RunningPrometheus,
  type TempDir,
} from '../helpers/daemons/index.js';
import { startServedRoot, type ServedRoot } from '../helpers/serve-client.js';

// A real Prometheus (Debian's, on loopback, temp config and TSDB, the shipped rules loaded) scrapes a real `serve`
// over copies of fixtures/runs: the two real box runs (lane fleet), the cold one again as lane nightly-aws, three
// older synthetic warm runs (the previous runs of fleet/warm), a run still running and a run dir with a broken
// run.json. Every rocm_perf_* series Prometheus stored is compared, both ways, with the series computed here from
// the runs' data.json (fetched from serve's own data.json route) by this file's own arithmetic; then the recorded
// median and the regression alert. promtool checks the exposition.

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/runs');
const SYNTHETIC = [
  { stamp: '20260310T090000Z', startMs: Date.UTC(2026, 2, 10, 9), seed: 3 },
  { stamp: '20260312T090000Z', startMs: Date.UTC(2026, 2, 12, 9), seed: 5 },
  { stamp: '20260311T090000Z', startMs: Date.UTC(2026, 2, 11, 9), seed: 4 },
];
/** Lane regress: three copies of the real warm run, then a longer synthetic warm run after them (the regression). */
const REGRESS_COPIES = ['regress-1', 'regress-2', 'regress-3'];
/** The synthetic run starts on the hour after the real warm run finished (its run.json), so it is the lane's latest. */
const REGRESSED = (() => {
  const warmRun = JSON.parse(readFileSync(path.join(FIXTURES, 'gfx1201-warm', 'run.json'), 'utf8')) as {
    finishedAtMs: number;
  };
  const startMs = Math.ceil((warmRun.finishedAtMs + 1) / 3_600_000) * 3_600_000;
  const stamp = new Date(startMs)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
  return { stamp, startMs, seed: 8 };
})();
const RUNNING = '20261231T000000Z';
const BROKEN = '20260101T000000Z-broken';

let temp: TempDir;
let served: ServedRoot | undefined;
let prometheus: RunningPrometheus | undefined;
let exposition = '';
let scrapedAtMs = 0;

beforeAll(async () => {
  temp = createTempDir('serve-metrics');
  const root = path.join(temp.path, 'runs');
  try {
    await mkdir(root);
    await cp(path.join(FIXTURES, 'gfx1201-cold'), path.join(root, 'gfx1201-cold'), { recursive: true });
    await cp(path.join(FIXTURES, 'gfx1201-warm'), path.join(root, 'gfx1201-warm'), { recursive: true });
    await cp(path.join(FIXTURES, 'gfx1201-cold'), path.join(root, 'aws-cold'), { recursive: true });
    await writeFile(path.join(root, 'aws-cold', 'lane.txt'), 'nightly-aws\n');
    for (const { stamp, startMs, seed } of SYNTHETIC)
      await writeFixtureRun({
        dir: path.join(root, stamp),
        stamp,
        startMs,
        nodeCount: 2,
        durationSeconds: 300,
        seed,
      });
    for (const folder of REGRESS_COPIES) {
      await cp(path.join(FIXTURES, 'gfx1201-warm'), path.join(root, folder), { recursive: true });
      await writeFile(path.join(root, folder, 'lane.txt'), 'regress\n');
    }
    await writeFixtureRun({
      dir: path.join(root, REGRESSED.stamp),
      ...REGRESSED,
      nodeCount: 2,
      durationSeconds: 300,
    });
    await writeFile(path.join(root, REGRESSED.stamp, 'lane.txt'), 'regress\n');
    await writeFixtureRun({
      dir: path.join(root, RUNNING),
      stamp: RUNNING,
      nodeCount: 2,
      durationSeconds: 300,
      seed: 6,
      status: 'running',
    });
    await mkdir(path.join(root, BROKEN));
    await writeFile(path.join(root, BROKEN, 'run.json'), '{"version": 1, "stamp": ');
    served = await startServedRoot({ root, bind: '127.0.0.1', port: 0, refreshMs: 60_000 });
    // The first /metrics waits for every picked run's report; Prometheus then gets answers at once.
    expect((await served.get('/metrics')).status).toBe(200);
    prometheus = await startPrometheus({
      targets: [new URL(served.server.url).host],
      job: 'rocm-perf',
      scrapeIntervalMs: 1000,
      ruleFiles: [path.resolve(import.meta.dirname, '../../contrib/prometheus/rocm-perf-rules.yml')],
    });
    await waitForScrape();
    const reply = await served.get('/metrics');
    exposition = reply.body;
  } catch (error) {
    await teardown();
    throw error;
  }
}, 120_000);

/** Once, whichever comes first: a failed beforeAll or afterAll. */
async function teardown(): Promise<void> {
  const [running, server] = [prometheus, served];
  prometheus = undefined;
  served = undefined;
  try {
    await running?.stop();
    await server?.close();
  } finally {
    temp.remove();
  }
}
afterAll(teardown);

interface PromSample {
  metric: Record<string, string>;
  value: [number, string];
}

async function query(promql: string): Promise<PromSample[]> {
  const url = `${prometheus!.url}/api/v1/query?query=${encodeURIComponent(promql)}`;
  const response = await request(url);
  const body = (await response.body.json()) as { status: string; data: { result: PromSample[] } };
  expect(body.status).toBe('success');
  return body.data.result;
}

/** Until Prometheus has scraped serve and evaluated the rules over what it scraped. */
async function waitForScrape(): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const up = await query('up{job="rocm-perf"} == 1').catch(() => []);
    const recorded = await query('lane_harness_arch:rocm_perf_previous_makespan_seconds:count').catch(
      () => [],
    );
    if (up.length === 1 && recorded.length > 0) break;
    if (Date.now() > deadline) throw new Error('prometheus never scraped serve /metrics');
    await delay(300);
  }
  await delay(2500);
  scrapedAtMs = Date.now();
}

async function fetchModel(folder: string): Promise<DataFile> {
  const reply = await served!.get(`/runs/${folder}/data.json`);
  expect(reply.status).toBe(200);
  return DataFileSchema.parse(JSON.parse(reply.body));
}

// --- The expected series, computed here from data.json -------------------------------------------------------

type Expected = Map<string, number>;

function toKey(name: string, labels: Record<string, string>): string {
  const sorted = Object.keys(labels)
    .filter((key) => !['job', 'instance', '__name__'].includes(key))
    .sort()
    .map((key) => `${key}=${labels[key]}`);
  return `${name}{${sorted.join(',')}}`;
}

function put(expected: Expected, name: string, labels: Record<string, string>, value: number | null): void {
  if (value !== null) expected.set(toKey(name, labels), value);
}

function layerRatio(model: DataFile): number | null {
  const counted = model.summary.targets.filter((t) => t.cachedSteps !== null && t.totalSteps !== null);
  const total = counted.reduce((sum, t) => sum + t.totalSteps!, 0);
  return total === 0 ? null : counted.reduce((sum, t) => sum + t.cachedSteps!, 0) / total;
}

function sccacheRatio(model: DataFile): number | null {
  const { hits, misses } = model.summary.sccache.total;
  return hits + misses === 0 ? null : hits / (hits + misses);
}

function putLatest(expected: Expected, base: Record<string, string>, model: DataFile): void {
  const s = model.summary;
  put(expected, 'rocm_perf_run_info', { ...base, stamp: model.run.stamp }, 1);
  put(expected, 'rocm_perf_makespan_seconds', base, s.makespanSeconds);
  put(expected, 'rocm_perf_planned_makespan_seconds', base, s.plannedMakespanSeconds);
  put(expected, 'rocm_perf_makespan_lower_bound_seconds', base, s.lowerBoundSeconds);
  put(
    expected,
    'rocm_perf_makespan_gap_seconds',
    { ...base, against: 'plan' },
    s.makespanSeconds! - s.plannedMakespanSeconds!,
  );
  put(
    expected,
    'rocm_perf_makespan_gap_seconds',
    { ...base, against: 'lower_bound' },
    s.makespanSeconds! - s.lowerBoundSeconds!,
  );
  const planned = s.forecast?.planned;
  if (planned) {
    put(expected, 'rocm_perf_forecast_makespan_seconds', { ...base, percentile: '10' }, planned.p10);
    put(expected, 'rocm_perf_forecast_makespan_seconds', { ...base, percentile: '50' }, planned.p50);
    put(expected, 'rocm_perf_forecast_makespan_seconds', { ...base, percentile: '90' }, planned.p90);
  }
  const percentile = s.forecast?.percentile ?? null;
  put(expected, 'rocm_perf_forecast_landed_ratio', base, percentile === null ? null : percentile / 100);
  put(expected, 'rocm_perf_layer_cache_hit_ratio', base, layerRatio(model));
  put(expected, 'rocm_perf_sccache_hit_ratio', base, sccacheRatio(model));
  for (const part of ['makespan', 'targets', 'nodes', 'sccache', 'registry'])
    put(expected, 'rocm_perf_input_damaged', { ...base, part }, 0);
  put(expected, 'rocm_perf_loud_warnings', base, s.warnings.filter((w) => w.level === 'loud').length);
  put(expected, 'rocm_perf_run_finished_timestamp_seconds', base, model.run.finishedAtMs! / 1000);
  for (const t of s.targets) {
    put(expected, 'rocm_perf_target_build_seconds', { ...base, target: t.target }, t.buildSeconds);
    put(expected, 'rocm_perf_target_upload_seconds', { ...base, target: t.target }, t.uploadSeconds);
  }
  for (const n of s.nodes) {
    const labels = { ...base, node: n.node };
    const bytes = s.targets.filter((t) => t.node === n.node && t.uploadBytes !== null);
    put(
      expected,
      'rocm_perf_node_upload_bytes',
      labels,
      bytes.length === 0 ? null : bytes.reduce((a, t) => a + t.uploadBytes!, 0),
    );
    put(
      expected,
      'rocm_perf_node_upload_throughput_bytes_per_second',
      labels,
      n.measuredUploadMBps === null ? null : n.measuredUploadMBps * 1e6,
    );
    const rate = n.upload !== null && n.upload.wireBound >= 2 ? n.upload.rateMBps : null;
    put(expected, 'rocm_perf_node_upload_rate_bytes_per_second', labels, rate === null ? null : rate * 1e6);
    put(
      expected,
      'rocm_perf_node_link_bytes_per_second',
      labels,
      n.configuredLinkMbps === null ? null : n.configuredLinkMbps * 1e6,
    );
  }
}

function putPrevious(expected: Expected, base: Record<string, string>, models: DataFile[]): void {
  models.forEach((model, index) => {
    const labels = { ...base, runs_ago: String(index + 1) };
    put(expected, 'rocm_perf_previous_makespan_seconds', labels, model.summary.makespanSeconds);
    put(expected, 'rocm_perf_previous_layer_cache_hit_ratio', labels, layerRatio(model));
    put(expected, 'rocm_perf_previous_sccache_hit_ratio', labels, sccacheRatio(model));
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

describe('serve /metrics scraped by a real Prometheus', () => {
  it('passes promtool check metrics', () => {
    const result = spawnSync('/usr/bin/promtool', ['check', 'metrics'], {
      input: exposition,
      encoding: 'utf8',
    });
    expect(`${result.stdout}${result.stderr}`).toBe('');
    expect(result.status).toBe(0);
    expect(exposition.endsWith('# EOF\n')).toBe(true);
  });

  it('is served as OpenMetrics text', async () => {
    const reply = await served!.get('/metrics');
    expect(reply.headers['content-type']).toBe('application/openmetrics-text; version=1.0.0; charset=utf-8');
  });

  it('holds in Prometheus exactly the series computed from the runs’ data.json', async () => {
    const cold = await fetchModel('gfx1201-cold');
    const warm = await fetchModel('gfx1201-warm');
    const aws = await fetchModel('aws-cold');
    // The committed data.json of the fixture says the same as serve's (the figures are the runs', not serve's).
    const committed = DataFileSchema.parse(
      JSON.parse(await readFile(path.join(FIXTURES, 'gfx1201-warm/data.json'), 'utf8')),
    );
    expect(warm.summary.makespanSeconds).toBe(committed.summary.makespanSeconds);
    const synthetic = await Promise.all(SYNTHETIC.map((s) => fetchModel(s.stamp)));
    const previous = [...synthetic].sort((a, b) => b.run.startedAtMs! - a.run.startedAtMs!);
    const expected: Expected = new Map();
    const base = (lane: string, model: DataFile) => ({
      lane,
      harness: model.run.harness,
      arch: model.run.arch!,
    });
    putLatest(expected, base('fleet', cold), cold);
    putLatest(expected, base('fleet', warm), warm);
    putLatest(expected, base('nightly-aws', aws), aws);
    putPrevious(expected, base('fleet', warm), previous);
    const regressed = await fetchModel(REGRESSED.stamp);
    putLatest(expected, base('regress', regressed), regressed);
    putPrevious(
      expected,
      base('regress', regressed),
      REGRESS_COPIES.map(() => warm),
    );
    put(expected, 'rocm_perf_metrics_unreadable_runs', {}, 1);

    const stored = await query('{__name__=~"rocm_perf_.+"}');
    const ages = stored.filter((s) => s.metric.__name__ === 'rocm_perf_run_age_seconds');
    const got = new Map(
      stored
        .filter((s) => s.metric.__name__ !== 'rocm_perf_run_age_seconds')
        .map((s) => [toKey(s.metric.__name__!, s.metric), Number(s.value[1])]),
    );
    expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [key, value] of expected) expect(got.get(key), key).toBeCloseTo(value, 9);
    // Age: seconds since finishedAtMs at the scrape, which was within the last few seconds.
    expect(ages).toHaveLength(4);
    for (const age of ages) {
      const model =
        age.metric.lane === 'nightly-aws'
          ? aws
          : age.metric.lane === 'regress'
            ? regressed
            : age.metric.harness === 'cold'
              ? cold
              : warm;
      const expectedAge = Math.max(0, scrapedAtMs - model.run.finishedAtMs!) / 1000;
      expect(Math.abs(Number(age.value[1]) - expectedAge)).toBeLessThan(15);
    }
  });

  it('records the median of the previous runs and alerts on the regression it implies, only there', async () => {
    const warm = await fetchModel('gfx1201-warm');
    const synthetic = await Promise.all(SYNTHETIC.map((s) => fetchModel(s.stamp)));
    const regressed = await fetchModel(REGRESSED.stamp);
    const baselines = {
      fleet: median(synthetic.map((m) => m.summary.makespanSeconds!)),
      regress: median(REGRESS_COPIES.map(() => warm.summary.makespanSeconds!)),
    };
    for (const [lane, baseline] of Object.entries(baselines)) {
      const [recorded] = await query(
        `lane_harness_arch:rocm_perf_previous_makespan_seconds:median{lane="${lane}",harness="warm"}`,
      );
      expect(Number(recorded!.value[1]), lane).toBeCloseTo(baseline, 9);
    }
    // This file's rule: over 1.10 × the median of at least 3 previous runs. fleet/warm's latest (the real run,
    // 10.1 s) is far under its synthetic predecessors; regress/warm's latest (synthetic, minutes) far over its three.
    expect(warm.summary.makespanSeconds! > 1.1 * baselines.fleet).toBe(false);
    expect(regressed.summary.makespanSeconds! > 1.1 * baselines.regress).toBe(true);
    const alerts = await query('ALERTS{alertname="RocmPerfMakespanRegressed"}');
    expect(alerts.map((a) => `${a.metric.lane}/${a.metric.harness}/${a.metric.alertstate}`)).toEqual([
      'regress/warm/firing',
    ]);
  });
});
