import type { Sample } from '../../src/artifacts/index.js';
import type { SimRun } from './simulate-run.js';
import { createRandom } from './simulate-run.js';

// The logs of a synthetic run in their producers' formats: samples.jsonl (our sampler's Sample lines),
// the sccache nginx JSON log (the shipped `sccache_json` log_format) and Zot's slog session log.

function phaseAt(run: SimRun, node: string, tMs: number): 'steps' | 'upload' | 'other' | 'idle' {
  const target = run.targets.find((t) => t.node === node && tMs >= t.startMs && tMs < t.endMs);
  if (!target) return 'idle';
  if (target.steps.some((s) => tMs >= s.startMs && tMs < s.endMs)) return 'steps';
  if (target.uploads.some((u) => tMs >= u.startMs && tMs < u.endMs)) return 'upload';
  return 'other';
}

export function renderSamples(
  run: SimRun,
  { intervalMs = 1000, seed = 11 }: { intervalMs?: number; seed?: number } = {},
): string {
  const random = createRandom(seed);
  const lines: string[] = [];
  const base = { steps: 88, upload: 14, other: 22, idle: 3 } as const;
  const mem = new Map(run.nodes.map((n) => [n.name, 20 + random() * 10]));
  for (let t = run.startMs - 5000; t <= run.endMs + 5000; t += intervalMs) {
    run.nodes.forEach((node, index) => {
      const tsMs = t + index * 37;
      const first = t === run.startMs - 5000;
      if (!first && random() < 0.0005) {
        lines.push(
          JSON.stringify({
            version: 1,
            node: node.name,
            tsMs,
            ok: false,
            error: 'GET http://' + node.name + ':9100/metrics: timeout after 2000 ms',
          } satisfies Sample),
        );
        return;
      }
      const phase = phaseAt(run, node.name, tsMs);
      const cpu = Math.min(100, Math.max(0, base[phase] + (random() - 0.5) * 12));
      const m = Math.min(
        95,
        Math.max(5, mem.get(node.name)! + (phase === 'steps' ? 0.05 : -0.03) + (random() - 0.5) * 0.4),
      );
      mem.set(node.name, m);
      const sample: Sample = {
        version: 1,
        node: node.name,
        tsMs,
        ok: true,
        cpuBusyPct: first ? null : round1(cpu),
        memUsedPct: round1(m),
        diskReadBps: first ? null : Math.round(random() * 5e6),
        diskWriteBps: first ? null : Math.round(random() * 2e7),
        netRxBps: first ? null : Math.round(random() * 1e6),
        netTxBps: first ? null : phase === 'upload' ? node.linkMbps * 1e6 : Math.round(random() * 1e5),
        load1: round1((cpu / 100) * 64),
      };
      lines.push(JSON.stringify(sample));
    });
  }
  return lines.join('\n') + '\n';
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

function nginxLine(options: {
  tsMs: number;
  address: string;
  method: string;
  uri: string;
  status: number;
  contentLength: number | '';
  bodyBytes: number;
  requestTime: number;
}): string {
  const ts = new Date(options.tsMs).toISOString().replace(/\.\d{3}Z$/, '+00:00');
  const msec = (options.tsMs / 1000).toFixed(3);
  const requestLength = 200 + (options.contentLength === '' ? 0 : options.contentLength);
  return `{"ts":"${ts}","msec":${msec},"remote_addr":"${options.address}","method":"${options.method}","uri":"${options.uri}","status":${options.status},"request_length":${requestLength},"content_length":"${options.contentLength}","body_bytes_sent":${options.bodyBytes},"bytes_sent":${options.bodyBytes + 150},"request_time":${options.requestTime.toFixed(3)},"ua":"sccache/0.17.0","completion":"OK"}`;
}

export function renderSccacheLog(
  run: SimRun,
  { prefix, everyMs = 4000, seed = 23 }: { prefix: string; everyMs?: number; seed?: number },
): string {
  const random = createRandom(seed);
  const lines: string[] = [];
  for (const target of run.targets) {
    const node = run.nodes.find((n) => n.name === target.node)!;
    for (const step of target.steps) {
      for (let t = step.startMs; t < step.endMs; t += everyMs) {
        const key =
          Math.floor(random() * 2 ** 48)
            .toString(16)
            .padStart(12, '0') + 'a'.repeat(52);
        const uri = `/sccache/${prefix}/${key[0]}/${key[1]}/${key[2]}/${key}`;
        const roll = random();
        if (roll < 0.6)
          lines.push(
            nginxLine({
              tsMs: t,
              address: node.address,
              method: 'GET',
              uri,
              status: 200,
              contentLength: '',
              bodyBytes: 20_000 + Math.floor(random() * 900_000),
              requestTime: 0.01,
            }),
          );
        else {
          lines.push(
            nginxLine({
              tsMs: t,
              address: node.address,
              method: 'GET',
              uri,
              status: 404,
              contentLength: '',
              bodyBytes: 153,
              requestTime: 0,
            }),
          );
          lines.push(
            nginxLine({
              tsMs: t + 500,
              address: node.address,
              method: 'PROPFIND',
              uri: uri.replace(/[^/]+$/, ''),
              status: 207,
              contentLength: 134,
              bodyBytes: 412,
              requestTime: 0.001,
            }),
          );
          const size = 50_000 + Math.floor(random() * 2_000_000);
          lines.push(
            nginxLine({
              tsMs: t + 1500,
              address: node.address,
              method: 'PUT',
              uri,
              status: 201,
              contentLength: size,
              bodyBytes: 0,
              requestTime: 0.03,
            }),
          );
        }
      }
    }
  }
  return sortLines(lines, (line) => Number(/"msec":([\d.]+)/.exec(line)?.[1]));
}

function zotLine(options: {
  tsMs: number;
  address: string;
  method: string;
  path: string;
  status: number;
  contentLength?: number;
  contentType?: string;
}): string {
  const headers: Record<string, string[]> = { 'Accept-Encoding': ['gzip'], 'User-Agent': ['buildkit/v0.21'] };
  if (options.contentLength !== undefined) headers['Content-Length'] = [String(options.contentLength)];
  if (options.contentType) headers['Content-Type'] = [options.contentType];
  return JSON.stringify({
    time: new Date(options.tsMs).toISOString().replace('Z', '412Z'),
    level: 'info',
    message: 'HTTP API',
    module: 'http',
    component: 'session',
    clientIP: `${options.address}:51822`,
    method: options.method,
    path: options.path,
    statusCode: options.status,
    latency: '0s',
    bodySize: 0,
    headers,
    caller: 'zotregistry.dev/zot/v2/pkg/api/session.go:92',
    func: 'zotregistry.dev/zot/v2/pkg/api.SessionLogger.func1.1',
    goroutine: 4211,
  });
}

export function renderZotLog(run: SimRun): string {
  const lines: string[] = [];
  let n = 0;
  for (const target of run.targets) {
    const node = run.nodes.find((x) => x.name === target.node)!;
    for (const upload of target.uploads) {
      const digest = `sha256:${(++n).toString(16).padStart(64, '0')}`;
      if (upload.isManifest) {
        lines.push(
          zotLine({
            tsMs: upload.endMs,
            address: node.address,
            method: 'PUT',
            path: `/v2/${upload.repository}/manifests/${upload.reference}`,
            status: 201,
            contentLength: upload.bytes,
            contentType: 'application/vnd.oci.image.manifest.v1+json',
          }),
        );
        continue;
      }
      lines.push(
        zotLine({
          tsMs: upload.startMs,
          address: node.address,
          method: 'HEAD',
          path: `/v2/${upload.repository}/blobs/${digest}`,
          status: 404,
        }),
      );
      lines.push(
        zotLine({
          tsMs: upload.startMs + 5,
          address: node.address,
          method: 'POST',
          path: `/v2/${upload.repository}/blobs/uploads/`,
          status: 202,
          contentLength: 0,
        }),
      );
      lines.push(
        zotLine({
          tsMs: upload.endMs,
          address: node.address,
          method: 'PUT',
          path: `/v2/${upload.repository}/blobs/uploads/u${n}?digest=${digest.replace(':', '%3A')}`,
          status: 201,
          contentLength: upload.bytes,
          contentType: 'application/octet-stream',
        }),
      );
    }
  }
  return sortLines(lines, (line) =>
    Date.parse(/"time":"([^"]+)"/.exec(line)?.[1]?.replace(/(\.\d{3})\d+Z$/, '$1Z') ?? '0'),
  );
}

function sortLines(lines: string[], timeOf: (line: string) => number): string {
  return (
    lines
      .map((line) => ({ line, t: timeOf(line) }))
      .sort((a, b) => a.t - b.t)
      .map((x) => x.line)
      .join('\n') + (lines.length ? '\n' : '')
  );
}
