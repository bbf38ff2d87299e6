// One HTTP request from inside the node's namespace, optionally traced like BuildKit traces registry requests:
// an outer `remotes.docker.resolver.HTTPRequest` span around an inner otelhttp `HTTP <METHOD>` span with the
// v0.27+ attribute keys and the request headers as `http.request.header.*` (buildkit.md §4.4).
import { Agent, request } from 'node:http';
import { SpanKind, nowMs, type Attrs, type SpanHandle, type TraceRecorder } from './spans.js';

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

export interface HttpCallOptions {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: Buffer;
  userAgent: string;
  trace?: { recorder: TraceRecorder; parent: SpanHandle } | undefined;
}

export interface HttpCallResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  startMs: number;
  endMs: number;
}

function startSpans(options: HttpCallOptions, url: URL, headers: Record<string, string>) {
  if (!options.trace) return undefined;
  const { recorder, parent } = options.trace;
  const outer = recorder.startSpan({
    name: 'remotes.docker.resolver.HTTPRequest',
    parent,
    kind: SpanKind.client,
    service: 'buildkitd',
    scope: 'github.com/containerd/containerd/tracing',
  });
  const attrs: Attrs = {
    'http.request.method': options.method,
    'url.full': url.href,
    'server.address': url.hostname,
    'server.port': Number(url.port || 80),
    'network.protocol.version': '1.1',
  };
  for (const [name, value] of Object.entries(headers))
    attrs[`http.request.header.${name.toLowerCase()}`] = value;
  const inner = recorder.startSpan({
    name: `HTTP ${options.method}`,
    parent: outer,
    kind: SpanKind.client,
    service: 'buildkitd',
    scope: 'go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp',
    attrs,
  });
  inner.addEvent('http.getconn.start');
  return { outer, inner };
}

export function httpCall(options: HttpCallOptions): Promise<HttpCallResult> {
  const url = new URL(options.url);
  const headers: Record<string, string> = {
    host: url.host,
    'user-agent': options.userAgent,
    ...options.headers,
  };
  if (options.body !== undefined || ['PUT', 'POST', 'PATCH'].includes(options.method))
    headers['content-length'] = String(options.body?.length ?? 0);
  const spans = startSpans(options, url, headers);
  if (spans) headers.traceparent = `00-${options.trace!.recorder.traceId}-${spans.inner.spanId}-01`;
  const startMs = nowMs();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        method: options.method,
        host: url.hostname,
        port: url.port || 80,
        path: `${url.pathname}${url.search}`,
        headers,
        agent,
      },
      (res) => {
        spans?.inner.addEvent('http.receive.start');
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.once('end', () => {
          const endMs = nowMs();
          const status = res.statusCode ?? 0;
          spans?.inner.addEvent('http.receive.done', endMs);
          const error = status >= 400 ? `HTTP ${status}` : undefined;
          spans?.inner.end({
            attrs: { 'http.response.status_code': status },
            atMs: endMs,
            ...(error ? { error } : {}),
          });
          spans?.outer.end({ atMs: endMs, ...(error ? { error } : {}) });
          resolve({ status, headers: res.headers, body: Buffer.concat(chunks), startMs, endMs });
        });
        res.once('error', reject);
      },
    );
    req.once('socket', () => {
      spans?.inner.addEvent('http.getconn.done');
      spans?.inner.addEvent('http.send.start');
    });
    req.once('finish', () => spans?.inner.addEvent('http.send.done'));
    req.once('error', (error) => {
      spans?.inner.end({ error: error.message });
      spans?.outer.end({ error: error.message });
      reject(error);
    });
    req.end(options.body);
  });
}
