import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { computeSample } from '../../../../src/collect/node-exporter/compute-rates.js';
import { parseMetrics } from '../../../../src/collect/node-exporter/parse-metrics.js';
import { SampleSchema } from '../../../../src/artifacts/index.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../fixtures/node-exporter/${name}`, import.meta.url), 'utf8');
const families = (text: string) => parseMetrics(text).families;

/** A scrape with two CPUs, memory, disks and network devices; counters scaled by `k`. */
function scrape(k: number, extra = ''): string {
  return [
    '# TYPE node_cpu_seconds_total counter',
    `node_cpu_seconds_total{cpu="0",mode="idle"} ${100 + 2 * k}`,
    `node_cpu_seconds_total{cpu="0",mode="iowait"} ${10 + 1 * k}`,
    `node_cpu_seconds_total{cpu="0",mode="user"} ${50 + 5 * k}`,
    `node_cpu_seconds_total{cpu="1",mode="idle"} ${100 + 1 * k}`,
    `node_cpu_seconds_total{cpu="1",mode="system"} ${20 + 1 * k}`,
    '# TYPE node_cpu_guest_seconds_total counter',
    `node_cpu_guest_seconds_total{cpu="0",mode="user"} ${1000 * k}`,
    'node_memory_MemTotal_bytes 1000',
    'node_memory_MemAvailable_bytes 250',
    'node_load1 3.5',
    `node_disk_read_bytes_total{device="sda"} ${1000 * k}`,
    `node_disk_read_bytes_total{device="sda1"} ${1000 * k}`,
    `node_disk_read_bytes_total{device="dm-0"} ${900 * k}`,
    `node_disk_read_bytes_total{device="nvme0n1"} ${500 * k}`,
    `node_disk_read_bytes_total{device="nvme0n1p2"} ${500 * k}`,
    `node_disk_written_bytes_total{device="sda"} ${4000 * k}`,
    `node_disk_written_bytes_total{device="zram0"} ${7000 * k}`,
    `node_network_receive_bytes_total{device="eth0"} ${10000 * k}`,
    `node_network_receive_bytes_total{device="lo"} ${99999 * k}`,
    `node_network_receive_bytes_total{device="veth1a2b"} ${99999 * k}`,
    `node_network_receive_bytes_total{device="docker0"} ${99999 * k}`,
    `node_network_receive_bytes_total{device="br-5f2e"} ${99999 * k}`,
    `node_network_transmit_bytes_total{device="eth0"} ${2000 * k}`,
    `node_network_transmit_bytes_total{device="wlan0"} ${600 * k}`,
    'node_boot_time_seconds 1.7e+09',
    extra,
    '',
  ].join('\n');
}

describe('computeSample', () => {
  it('gives memory and load but null rates on the first scrape', () => {
    expect(
      computeSample({ node: 'n1', previous: undefined, current: families(scrape(0)), tsMs: 1000 }),
    ).toEqual({
      version: 1,
      node: 'n1',
      tsMs: 1000,
      ok: true,
      cpuBusyPct: null,
      memUsedPct: 75,
      diskReadBps: null,
      diskWriteBps: null,
      netRxBps: null,
      netTxBps: null,
      load1: 3.5,
      memTotalBytes: 1000, // node_memory_MemTotal_bytes of the scrape
    });
  });

  it('computes rates over the sampler interval, excluding virtual disks and container interfaces', () => {
    const sample = computeSample({
      node: 'n1',
      previous: { tsMs: 0, families: families(scrape(0)) },
      current: families(scrape(2)),
      tsMs: 2000,
    });
    // CPU deltas (k=2): idle 4+2, iowait 2, user 10, system 2 → total 20, idle+iowait 8 → busy 60 %.
    // Disk read: sda 2000 + nvme0n1 1000 over 2 s; partitions and dm-0 excluded. Write: sda only (zram excluded).
    // Net rx: eth0 only; tx: eth0 + wlan0. Guest CPU time is never added (already in user).
    expect(sample).toEqual({
      version: 1,
      node: 'n1',
      tsMs: 2000,
      ok: true,
      cpuBusyPct: 60,
      memUsedPct: 75,
      diskReadBps: 1500,
      diskWriteBps: 4000,
      netRxBps: 10000,
      netTxBps: 2600,
      load1: 3.5,
      memTotalBytes: 1000,
    });
  });

  it("prefers the node's clock (node_time_seconds) for the interval", () => {
    const sample = computeSample({
      node: 'n1',
      previous: { tsMs: 0, families: families(scrape(0, 'node_time_seconds 100')) },
      current: families(scrape(2, 'node_time_seconds 104')),
      tsMs: 2000,
    });
    expect(sample).toMatchObject({ diskWriteBps: 2000, netRxBps: 5000 });
  });

  it("falls back to the sampler's clock when the node's clock stepped backwards (skew, NTP step)", () => {
    const sample = computeSample({
      node: 'n1',
      previous: { tsMs: 0, families: families(scrape(0, 'node_time_seconds 500')) },
      current: families(scrape(2, 'node_time_seconds 400')),
      tsMs: 2000,
    });
    expect(sample).toMatchObject({ diskWriteBps: 4000, netRxBps: 10000 });
  });

  it('nulls the rates of a counter that went backwards and keeps the others', () => {
    const before = families(scrape(2));
    const after = families(
      scrape(2).replace(
        'node_network_receive_bytes_total{device="eth0"} 20000',
        'node_network_receive_bytes_total{device="eth0"} 5',
      ),
    );
    const sample = computeSample({
      node: 'n1',
      previous: { tsMs: 0, families: before },
      current: after,
      tsMs: 1000,
    });
    expect(sample).toMatchObject({ netRxBps: null, netTxBps: 0, diskReadBps: 0, cpuBusyPct: null });
  });

  it('nulls every rate when the node rebooted between scrapes', () => {
    const after = families(
      scrape(3).replace('node_boot_time_seconds 1.7e+09', 'node_boot_time_seconds 1.8e+09'),
    );
    const sample = computeSample({
      node: 'n1',
      previous: { tsMs: 0, families: families(scrape(0)) },
      current: after,
      tsMs: 1000,
    });
    expect(sample).toMatchObject({
      cpuBusyPct: null,
      diskReadBps: null,
      diskWriteBps: null,
      netRxBps: null,
      netTxBps: null,
      memUsedPct: 75,
    });
  });

  it('nulls rates when the interval is not positive', () => {
    const sample = computeSample({
      node: 'n1',
      previous: { tsMs: 5000, families: families(scrape(0)) },
      current: families(scrape(1)),
      tsMs: 5000,
    });
    expect(sample).toMatchObject({ cpuBusyPct: 60, diskReadBps: null, netTxBps: null });
  });

  it('falls back to MemFree + Buffers + Cached without MemAvailable (Linux < 3.14)', () => {
    const text =
      'node_memory_MemTotal_bytes 1000\nnode_memory_MemFree_bytes 100\nnode_memory_Buffers_bytes 50\nnode_memory_Cached_bytes 250\n';
    expect(computeSample({ node: 'n', previous: undefined, current: families(text), tsMs: 0 })).toMatchObject(
      { memUsedPct: 60 },
    );
  });

  it('gives nulls, not zeros, when the families are missing', () => {
    const sample = computeSample({
      node: 'n',
      previous: { tsMs: 0, families: families('x 1\n') },
      current: families('x 2\n'),
      tsMs: 1000,
    });
    expect(sample).toMatchObject({
      cpuBusyPct: null,
      memUsedPct: null,
      diskReadBps: null,
      netRxBps: null,
      load1: null,
    });
  });

  it('computes sane figures from two real scrapes of Debian node_exporter', () => {
    const meta = JSON.parse(fixture('debian-defaults.json')) as { scrapedAtMs: [number, number] };
    const sample = computeSample({
      node: 'local',
      previous: { tsMs: meta.scrapedAtMs[0], families: families(fixture('debian-defaults-a.prom')) },
      current: families(fixture('debian-defaults-b.prom')),
      tsMs: meta.scrapedAtMs[1],
    });
    expect(SampleSchema.parse(sample)).toEqual(sample);
    if (!sample.ok) throw new Error('expected an ok sample');
    // node_memory_MemAvailable_bytes 2.462152704e+10 of MemTotal 2.5275990016e+10 in scrape b.
    expect(sample.memUsedPct).toBeCloseTo(100 * (1 - 24621527040 / 25275990016), 10);
    expect(sample.load1).toBe(5.12);
    for (const value of [
      sample.cpuBusyPct,
      sample.diskReadBps,
      sample.diskWriteBps,
      sample.netRxBps,
      sample.netTxBps,
    ]) {
      expect(value).not.toBeNull();
      expect(value).toBeGreaterThanOrEqual(0);
    }
    expect(sample.cpuBusyPct).toBeLessThanOrEqual(100);
  });
});
