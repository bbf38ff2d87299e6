// Our own generators for large, realistic, time-ordered logs (benchmarks) and for the Zot fixtures (no Zot binary
// is packaged for Debian, so Zot lines are rendered in the two layouts its source writes; see docs/collectors-logs.md).
import { closeSync, openSync, writeSync } from 'node:fs';
import type { LogFormatSpec } from '../src/collect/logs/parse-log-format.js';
import { createRandom as createSeededRandom } from '../src/shared/random.js';

export type ZotLayout = 'slog' | 'zerolog';

export interface ZotEvent {
  tsMs: number;
  clientIP: string;
  method: string;
  path: string;
  statusCode: number;
  latency: string;
  bodySize: number;
  headers: Record<string, string[]>;
  username?: string;
  goroutine: number;
}

/** The shared seeded PRNG (mulberry32) as a plain function. */
export const createRandom = (seed: number): (() => number) => createSeededRandom(seed).next;

/** RFC3339Nano as Go prints it: trailing zeros of the fraction stripped. */
export function toRfc3339Nano(tsMs: number, nanos = 0): string {
  const iso = new Date(tsMs).toISOString();
  const fraction = `${iso.slice(20, 23)}${String(nanos).padStart(6, '0')}`.replace(/0+$/, '');
  return `${iso.slice(0, 19)}${fraction === '' ? '' : `.${fraction}`}Z`;
}

export function renderZotLine(event: ZotEvent, layout: ZotLayout): string {
  const time = toRfc3339Nano(event.tsMs, (event.goroutine * 7919) % 1_000_000);
  const user = event.username === undefined ? '' : `,"username":${JSON.stringify(event.username)}`;
  const request = `"clientIP":"${event.clientIP}","method":"${event.method}","path":${JSON.stringify(event.path)},"statusCode":${event.statusCode},"latency":"${event.latency}","bodySize":${event.bodySize},"headers":${JSON.stringify(Object.fromEntries(Object.entries(event.headers).sort(([a], [b]) => (a < b ? -1 : 1))))}`;
  if (layout === 'slog') {
    return `{"time":"${time}","level":"info","message":"HTTP API","module":"http"${user},"component":"session",${request},"caller":"zotregistry.dev/zot/v2/pkg/api/session.go:92","func":"zotregistry.dev/zot/v2/pkg/api.SessionLogger.func1.1","goroutine":${event.goroutine}}`;
  }
  return `{"level":"info","module":"http"${user},"component":"session",${request},"goroutine":${event.goroutine},"caller":"zotregistry.dev/zot/pkg/api/session.go:137","time":"${time}","message":"HTTP API"}`;
}

export function renderZotNoise(tsMs: number, layout: ZotLayout, index: number): string {
  const time = toRfc3339Nano(tsMs);
  const repo = `rocm/repo${index % 7}`;
  return layout === 'slog'
    ? `{"time":"${time}","level":"info","message":"executing gc of orphaned blobs","module":"gc","repository":"${repo}","caller":"zotregistry.dev/zot/v2/pkg/storage/gc/gc.go:110","func":"zotregistry.dev/zot/v2/pkg/storage/gc.(*GarbageCollect).cleanRepo","goroutine":${index}}`
    : `{"level":"info","module":"gc","repository":"${repo}","goroutine":${index},"caller":"zotregistry.dev/zot/pkg/storage/gc/gc.go:110","time":"${time}","message":"executing gc of orphaned blobs"}`;
}

const hex = (random: () => number, length: number) => {
  let text = '';
  while (text.length < length)
    text += Math.floor(random() * 0xffffffff)
      .toString(16)
      .padStart(8, '0');
  return text.slice(0, length);
};

const uas = ['buildkit/v0.21', 'buildkit/v0.21', 'go-containerregistry/v0.20.2', 'containerd/1.7.24'];

/** One layer push (HEAD 404, POST 202, PATCH×n, PUT 201) or a pull, as session events. */
export function generatePushEvents(random: () => number, tsMs: number, goroutine: number): ZotEvent[] {
  const client = `10.20.0.${10 + Math.floor(random() * 5)}:${40000 + Math.floor(random() * 20000)}`;
  const repo =
    random() < 0.5
      ? 'rocm/cache'
      : `rocm/${['api', 'triton-wheel', 'pytorch', 'base'][Math.floor(random() * 4)]}`;
  const digest = `sha256:${hex(random, 64)}`;
  const ua = uas[Math.floor(random() * uas.length)] ?? 'buildkit/v0.21';
  const base = {
    clientIP: client,
    latency: '0s',
    goroutine,
    headers: { 'Accept-Encoding': ['gzip'], 'User-Agent': [ua] },
  };
  const kind = random();
  if (kind < 0.45) {
    const size = Math.floor(random() * 200_000_000);
    return [
      {
        ...base,
        tsMs,
        method: 'GET',
        path: `/v2/${repo}/blobs/${digest}`,
        statusCode: 200,
        latency: size > 1e8 ? '1s' : '0s',
        bodySize: size,
      },
    ];
  }
  if (kind < 0.6)
    return [
      { ...base, tsMs, method: 'HEAD', path: `/v2/${repo}/blobs/${digest}`, statusCode: 200, bodySize: 0 },
    ];
  if (kind < 0.68) {
    return [
      {
        ...base,
        tsMs,
        method: 'PUT',
        path: `/v2/${repo}/manifests/${repo === 'rocm/cache' ? 'api' : 'latest'}`,
        statusCode: 201,
        bodySize: 0,
        headers: {
          ...base.headers,
          'Content-Length': [String(1000 + Math.floor(random() * 3000))],
          'Content-Type': ['application/vnd.oci.image.manifest.v1+json'],
        },
      },
    ];
  }
  const uuid = `${hex(random, 8)}-${hex(random, 4)}-${hex(random, 4)}-${hex(random, 4)}-${hex(random, 12)}`;
  const chunk = Math.floor(random() * 50_000_000);
  return [
    { ...base, tsMs, method: 'HEAD', path: `/v2/${repo}/blobs/${digest}`, statusCode: 404, bodySize: 157 },
    {
      ...base,
      tsMs,
      method: 'POST',
      path: `/v2/${repo}/blobs/uploads/`,
      statusCode: 202,
      bodySize: 0,
      headers: { ...base.headers, 'Content-Length': ['0'] },
    },
    {
      ...base,
      tsMs,
      method: 'PATCH',
      path: `/v2/${repo}/blobs/uploads/${uuid}`,
      statusCode: 202,
      bodySize: 0,
      headers: {
        ...base.headers,
        'Content-Length': [String(chunk)],
        'Content-Type': ['application/octet-stream'],
      },
    },
    {
      ...base,
      tsMs,
      method: 'PUT',
      path: `/v2/${repo}/blobs/uploads/${uuid}?digest=${digest.replace(':', '%3A')}`,
      statusCode: 201,
      bodySize: 0,
      headers: { ...base.headers, 'Content-Length': ['0'] },
    },
  ];
}

export interface GenerateOptions {
  path: string;
  sizeBytes: number;
  startMs: number;
  spanMs: number;
  seed?: number;
}

/** Appends lines from `next(tsMs, index)` to a file until sizeBytes were written, with times spread evenly over spanMs. */
export function writeGeneratedLog(
  options: GenerateOptions & { next: (tsMs: number, index: number) => string[] },
): number {
  const fd = openSync(options.path, 'a');
  let written = 0;
  let index = 0;
  let batch: string[] = [];
  let batchBytes = 0;
  try {
    while (written + batchBytes < options.sizeBytes) {
      const tsMs =
        options.startMs + Math.floor(((written + batchBytes) / options.sizeBytes) * options.spanMs);
      for (const line of options.next(tsMs, index++)) {
        batch.push(line);
        batchBytes += line.length + 1;
      }
      if (batchBytes > 4 * 1024 * 1024) {
        written += writeSync(fd, `${batch.join('\n')}\n`);
        batch = [];
        batchBytes = 0;
      }
    }
    if (batch.length > 0) written += writeSync(fd, `${batch.join('\n')}\n`);
  } finally {
    closeSync(fd);
  }
  return written;
}

export function generateZotLog(options: GenerateOptions & { layout: ZotLayout }): number {
  const random = createRandom(options.seed ?? 1);
  return writeGeneratedLog({
    ...options,
    next: (tsMs, index) =>
      index % 50 === 49
        ? [renderZotNoise(tsMs, options.layout, index)]
        : generatePushEvents(random, tsMs, index).map((event) => renderZotLine(event, options.layout)),
  });
}

/** An nginx log line for `spec` with the given values per variable (rendered as nginx escape=json would). */
export function renderNginxLine(spec: LogFormatSpec, values: Readonly<Record<string, string>>): string {
  let line = spec.literals[0] ?? '';
  spec.fields.forEach((field, index) => {
    const value = values[field.variable] ?? '';
    line += (field.quoted ? JSON.stringify(value).slice(1, -1) : value) + (spec.literals[index + 1] ?? '');
  });
  return line;
}

export function generateSccacheRequest(
  random: () => number,
  tsMs: number,
  prefix: string,
): Record<string, string>[] {
  const key = hex(random, 64);
  const uri = `/sccache/${prefix}/${key[0]}/${key[1]}/${key[2]}/${key}`;
  const address = `10.20.0.${10 + Math.floor(random() * 5)}`;
  const msec = (tsMs / 1000).toFixed(3);
  const common = {
    time_iso8601: new Date(tsMs).toISOString().replace(/\.\d+Z$/, '+00:00'),
    msec,
    remote_addr: address,
    http_user_agent: 'sccache/0.17.0',
    request_completion: 'OK',
    request_time: '0.004',
  };
  const size = String(Math.floor(random() * 4_000_000));
  const pick = random();
  if (pick < 0.6)
    return [
      {
        ...common,
        request_method: 'GET',
        uri,
        status: '200',
        request_length: '201',
        content_length: '',
        body_bytes_sent: size,
        bytes_sent: String(Number(size) + 265),
      },
    ];
  if (pick < 0.8)
    return [
      {
        ...common,
        request_method: 'GET',
        uri,
        status: '404',
        request_length: '201',
        content_length: '',
        body_bytes_sent: '153',
        bytes_sent: '306',
      },
    ];
  return [
    {
      ...common,
      request_method: 'PROPFIND',
      uri: `/sccache/${prefix}/${key[0]}/${key[1]}/${key[2]}/`,
      status: '207',
      request_length: '318',
      content_length: '134',
      body_bytes_sent: '412',
      bytes_sent: '561',
    },
    {
      ...common,
      request_method: 'PUT',
      uri,
      status: '201',
      request_length: String(Number(size) + 228),
      content_length: size,
      body_bytes_sent: '0',
      bytes_sent: '214',
    },
  ];
}

export function generateSccacheLog(
  options: GenerateOptions & { spec: LogFormatSpec; prefix: string },
): number {
  const random = createRandom(options.seed ?? 2);
  return writeGeneratedLog({
    ...options,
    next: (tsMs) =>
      generateSccacheRequest(random, tsMs, options.prefix).map((values) =>
        renderNginxLine(options.spec, values),
      ),
  });
}
