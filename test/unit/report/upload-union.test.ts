// A target's uploadSeconds in data.json is the union of its upload spans: wall time during which at least one
// PUT or POST to the registry was in flight. Not the sum of the spans (that counts overlaps twice), not the
// envelope from the first start to the last end (that counts the gaps between uploads).
import { describe, expect, it } from 'vitest';
import type { TraceUpload } from '../../../src/collect/index.js';
import { buildReportModel } from '../../../src/report/build-model.js';
import { buildNodeCells, buildNodeHeaders } from '../../../src/report/build-summary-cells.js';
import { makeRunInputs, T0 } from './make-run-inputs.js';

const S = 1000;
// The spans sit in triton-wheel's export tail, which starts at T0 + 400 s.
const EXPORT_MS = T0 + 400 * S;

function put([startMs, endMs]: [number, number]): TraceUpload {
  return {
    startMs: EXPORT_MS + startMs,
    endMs: EXPORT_MS + endMs,
    method: 'PUT',
    url: '/v2/rocm/triton-wheel/blobs/uploads/u',
    status: 201,
    bytes: 1000,
    kind: 'cache',
  };
}

/** triton-wheel's uploadSeconds from data.json's summary, with the given spans (ms into its export) as uploads. */
function uploadSecondsOf(...spansMs: [number, number][]): number | null {
  const inputs = makeRunInputs();
  const traces = inputs.traces.map((trace) =>
    trace.target === 'triton-wheel' ? { ...trace, uploads: spansMs.map(put) } : trace,
  );
  const { summary } = buildReportModel({ ...inputs, traces });
  return summary.targets.find((t) => t.target === 'triton-wheel')!.uploadSeconds;
}

describe('per-target uploadSeconds is the union of the upload spans', () => {
  it('overlapping spans count the overlap once (rules out the sum)', () => {
    // [0, 400] ∪ [300, 900] = [0, 900]: 0.9 s. The sum would be 0.4 + 0.6 = 1.0 s.
    expect(uploadSecondsOf([0, 400], [300, 900])).toBe(0.9);
  });

  it('a span nested in another adds nothing (rules out the sum)', () => {
    // [0, 1000] ∪ [200, 300] = [0, 1000]: 1.0 s. The sum would be 1.0 + 0.1 = 1.1 s.
    expect(uploadSecondsOf([0, 1000], [200, 300])).toBe(1);
  });

  it('the gap between disjoint spans is not upload time (rules out the envelope)', () => {
    // [0, 200] and [700, 1000]: 0.2 + 0.3 = 0.5 s. The envelope [0, 1000] would be 1.0 s.
    expect(uploadSecondsOf([0, 200], [700, 1000])).toBe(0.5);
  });

  it('overlap, nesting and a gap at once tell union, sum and envelope apart (rules out both)', () => {
    // [0, 300] ∪ [100, 200] ∪ [600, 1000] = [0, 300] + [600, 1000]: 0.3 + 0.4 = 0.7 s.
    // The sum would be 0.3 + 0.1 + 0.4 = 0.8 s; the envelope [0, 1000] would be 1.0 s.
    expect(uploadSecondsOf([0, 300], [100, 200], [600, 1000])).toBe(0.7);
  });
});

describe("per-node measuredUploadMBps: the node's bytes ÷ the union of its upload spans, beside run.json's link_mbps", () => {
  it('sums bytes over the node’s targets and divides by their upload time', () => {
    // forge: pytorch pushes 1 MB in [250 s, 299 s], triton-wheel 6.4 GB in [400 s, 599 s]: 248 s in all.
    const { summary } = buildReportModel(makeRunInputs());
    const forge = summary.nodes.find((n) => n.node === 'forge')!;
    expect(forge.configuredLinkMbps).toBe(100);
    expect(forge.measuredUploadMBps).toBe(Number(((1e6 + 6.4e9) / 248 / 1e6).toPrecision(4)));
  });

  it('overlapping uploads of one target count once', () => {
    const inputs = makeRunInputs();
    const traces = inputs.traces.map((trace) =>
      trace.target === 'triton-wheel' ? { ...trace, uploads: [put([0, 400]), put([300, 900])] } : trace,
    );
    const forge = buildReportModel({ ...inputs, traces }).summary.nodes.find((n) => n.node === 'forge')!;
    // pytorch 1 MB in 49 s, triton-wheel 2 × 1000 B in 0.9 s.
    expect(forge.measuredUploadMBps).toBe(Number(((1e6 + 2000) / 49.9 / 1e6).toPrecision(4)));
  });

  it('null without run.json (no node to attribute the uploads to)', () => {
    const { summary } = buildReportModel(makeRunInputs({ run: undefined }));
    expect(summary.nodes.every((n) => n.measuredUploadMBps === null && n.configuredLinkMbps === null)).toBe(
      true,
    );
  });
});

describe('per-node upload fit in the Nodes table: the rate only when pushes were large enough, the per-request cost', () => {
  /** triton-wheel (forge, 100 MB/s configured) pushes with the given requests: [bytes, startMs, endMs] into its export. */
  function forgeWith(requests: [number, number, number][]) {
    const inputs = makeRunInputs();
    const traces = inputs.traces.map((trace) =>
      trace.target === 'triton-wheel'
        ? { ...trace, uploads: requests.map(([bytes, s, e]) => ({ ...put([s, e]), bytes })) }
        : trace.target === 'pytorch'
          ? { ...trace, uploads: [] }
          : trace,
    );
    const forge = buildReportModel({ ...inputs, traces }).summary.nodes.find((n) => n.node === 'forge')!;
    return { forge, cells: buildNodeCells(forge, { withTargetCount: false }) };
  }
  const headers = buildNodeHeaders({ withTargetCount: false });
  const cell = (cells: string[], name: string) => cells[headers.indexOf(name)];

  it('small pushes: bytes ÷ time reads 8 % of the link, the table shows no rate and a 40 ms request cost', () => {
    // 40 ms a request at 100 MB/s: 10 requests of 0–40 kB (0–0.4 ms on the wire), one after another.
    const requests = Array.from({ length: 10 }, (_, k): [number, number, number] => {
      const ms = 40 + (k % 3) * 2 + (4000 * k) / 100_000;
      return [4000 * k, k * 100, k * 100 + ms];
    });
    const { forge, cells } = forgeWith(requests);
    expect(forge.measuredUploadMBps).toBeLessThan(10);
    expect(forge.upload).toMatchObject({ requests: 10, wireBound: 0 });
    expect(forge.upload!.latencyMs).toBeGreaterThan(39);
    expect(forge.upload!.latencyMs).toBeLessThan(43);
    expect(cell(cells, 'upload rate (fit)')).toBe(
      '— (pushes too small to tell: 0 of 10 requests wire-bound)',
    );
    expect(cell(cells, 'per request')).toMatch(/^4[0-2] ms ±\d+ \(10 requests\)$/);
  });

  it('large pushes: the fitted rate and its share of link_mbps', () => {
    // 20 ms a request, 80 MB/s: 10 small requests and 3 blobs of 20–40 MB (250–500 ms on the wire: over 3 × 20 ms and
    // 0.1 s).
    const small = Array.from({ length: 10 }, (_, k): [number, number, number] => [
      1000,
      k * 100,
      k * 100 + 20 + (k % 2),
    ]);
    const blobs = [20e6, 30e6, 40e6].map((bytes, k): [number, number, number] => [
      bytes,
      2000 + k * 1000,
      2000 + k * 1000 + 20 + bytes / 80_000,
    ]);
    const { forge, cells } = forgeWith([...small, ...blobs]);
    expect(forge.upload!.wireBound).toBe(3);
    expect(Math.abs(forge.upload!.rateMBps! / 80 - 1)).toBeLessThan(0.02);
    expect(cell(cells, 'upload rate (fit)')).toMatch(/^(79\.\d|80(\.\d)?) MB\/s \(80%\)$/);
  });
});
