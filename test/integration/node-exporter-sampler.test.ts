import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSampler, createSamplesWriter, readSamples } from '../../src/collect/index.js';
import type { Sample } from '../../src/artifacts/index.js';
import { findFreePort, startNodeExporter, type RunningNodeExporter } from '../helpers/daemons/index.js';

// Debian's prometheus-node-exporter on loopback, sampled for ~5 s into samples.jsonl and read back; then the
// same sampler against a node:http server that hangs, answers 500 and recovers, and a port nobody listens on.

const scrape = readFileSync(
  new URL('../fixtures/node-exporter/debian-defaults-a.prom', import.meta.url),
  'utf8',
);
let exporter: RunningNodeExporter | undefined;
let faults: Server | undefined;
let faultBase = '';
let flakyRequests = 0;
const dir = mkdtempSync(path.join(tmpdir(), 'rocm-perf-sampler-'));

beforeAll(async () => {
  exporter = await startNodeExporter();
  faults = createServer((request, response) => {
    if (request.url === '/hang') return; // never answers
    if (request.url === '/flaky') {
      flakyRequests += 1;
      if (flakyRequests > 2)
        return response.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(scrape);
    }
    response.writeHead(500).end('internal error\n');
  });
  const port = await findFreePort();
  await new Promise<void>((resolve) => faults?.listen(port, '127.0.0.1', resolve));
  faultBase = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  faults?.closeAllConnections();
  await new Promise<void>((resolve) => (faults ? faults.close(() => resolve()) : resolve()));
  await exporter?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const okSamples = (samples: Sample[], node: string) =>
  samples.filter((s): s is Extract<Sample, { ok: true }> => s.node === node && s.ok);
const gaps = (samples: Sample[], node: string) =>
  samples.filter((s): s is Extract<Sample, { ok: false }> => s.node === node && !s.ok);

describe('node_exporter sampler against the real daemon', () => {
  it('samples for ~5 s into samples.jsonl with sane figures, read back through the schema', async () => {
    const file = path.join(dir, 'samples.jsonl');
    const writer = createSamplesWriter(file);
    const seen: Sample[] = [];
    const sampler = createSampler({
      nodes: [{ name: 'local', url: exporter?.url ?? '' }],
      sampleIntervalMs: 1000,
      onSample: (sample) => {
        seen.push(sample);
        writer.write(sample);
      },
    });
    sampler.start();
    await delay(5200);
    await sampler.stop();
    await writer.close();

    // The file as written, line by line (JSON.parse, not the product's reader), then what the reader made of it.
    const samples = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Sample);
    expect(samples).toEqual(seen);
    const { table, stats } = await readSamples(file);
    expect(stats).toMatchObject({ records: samples.length, rejected: 0 });
    expect(Array.from(table.nodes.get('local')!.tsMs.subarray(0, samples.length))).toEqual(
      samples.map((sample) => sample.tsMs),
    );
    const ok = okSamples(samples, 'local');
    expect(ok.length).toBeGreaterThanOrEqual(5);
    expect(ok.length).toBe(samples.length);
    expect(ok[0]).toMatchObject({ cpuBusyPct: null, diskReadBps: null, netRxBps: null });
    for (const sample of ok.slice(1)) {
      expect(sample.cpuBusyPct).toBeGreaterThanOrEqual(0);
      expect(sample.cpuBusyPct).toBeLessThanOrEqual(100);
      expect(sample.memUsedPct).toBeGreaterThan(0);
      expect(sample.memUsedPct).toBeLessThan(100);
      expect(sample.load1).toBeGreaterThanOrEqual(0);
      for (const rate of [sample.diskReadBps, sample.diskWriteBps, sample.netRxBps, sample.netTxBps]) {
        expect(rate === null || rate >= 0).toBe(true);
      }
    }
    const intervals = ok.slice(1).map((sample, index) => sample.tsMs - (ok[index]?.tsMs ?? 0));
    for (const interval of intervals) expect(interval).toBeGreaterThan(800);
  });

  it('records failing nodes as gaps, retries them, and delays nobody', async () => {
    const seen: Sample[] = [];
    const refusedPort = await findFreePort();
    const sampler = createSampler({
      nodes: [
        { name: 'local', url: exporter?.url ?? '' },
        { name: 'hangs', url: `${faultBase}/hang` },
        { name: 'errors', url: `${faultBase}/500` },
        { name: 'recovers', url: `${faultBase}/flaky` },
        { name: 'refused', url: `http://127.0.0.1:${refusedPort}/metrics` },
      ],
      sampleIntervalMs: 500,
      timeoutMs: 400,
      onSample: (sample) => seen.push(sample),
    });
    sampler.start();
    await delay(3000);
    await sampler.stop();

    const local = okSamples(seen, 'local');
    expect(local.length).toBeGreaterThanOrEqual(5);
    expect(gaps(seen, 'local')).toEqual([]);
    const localIntervals = local.slice(1).map((sample, index) => sample.tsMs - (local[index]?.tsMs ?? 0));
    expect(Math.max(...localIntervals)).toBeLessThan(800);

    const hung = gaps(seen, 'hangs');
    expect(hung.length).toBeGreaterThanOrEqual(3);
    expect(hung[0]?.error).toBe(`${faultBase}/hang: no complete answer within 400 ms`);
    expect(gaps(seen, 'errors').length).toBeGreaterThanOrEqual(4);
    expect(gaps(seen, 'errors')[0]?.error).toBe(
      `${faultBase}/500: answered HTTP 500; expected 200 with the metrics text`,
    );
    expect(gaps(seen, 'refused')[0]?.error).toMatch(/ECONNREFUSED/);

    const recovering = seen.filter((sample) => sample.node === 'recovers');
    expect(recovering.slice(0, 2).map((sample) => sample.ok)).toEqual([false, false]);
    expect(okSamples(seen, 'recovers').length).toBeGreaterThanOrEqual(2);
  });
});
