// Builds one Zot (slog era, v2.1.9+) session log line, keys in Zot's order (logs-and-metrics.md §1.2/§1.3).

export interface ZotSessionLineInput {
  /** Wall-clock time the line is written, ms since the epoch with a fractional part (µs resolution). */
  timeMs: number;
  clientIp: string;
  clientPort: number;
  method: string;
  /** Decoded path plus `?` + raw query when present. */
  path: string;
  statusCode: number;
  latencyMs: number;
  bodySizeBytes: number;
  /** Request headers as Node gives them (lower-case names). */
  headers: Record<string, string[] | undefined>;
  goroutine: number;
}

/** Go's RFC3339Nano in UTC: trailing zeros of the fraction stripped, no fraction when it is zero. */
function toGoRfc3339Nano(timeMs: number): string {
  const wholeMs = Math.floor(timeMs);
  const base = new Date(wholeMs).toISOString().slice(0, 19);
  const nanos = Math.round((timeMs - Math.floor(timeMs / 1000) * 1000) * 1e6);
  const fraction = String(Math.min(nanos, 999_999_999)).padStart(9, '0').replace(/0+$/, '');
  return `${base}${fraction ? `.${fraction}` : ''}Z`;
}

/** Go `time.Duration.String()` of a duration truncated to whole seconds, as Zot logs latency. */
function toGoDurationTruncatedToSeconds(ms: number): string {
  const total = Math.floor(ms / 1000);
  if (total === 0) return '0s';
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (hours > 0) return `${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${minutes}m${seconds}s`;
  return `${seconds}s`;
}

/** Go's `http.CanonicalHeaderKey`: `content-length` → `Content-Length`. */
function toCanonicalHeaderKey(name: string): string {
  return name
    .toLowerCase()
    .split('-')
    .map((part) => (part ? part[0]!.toUpperCase() + part.slice(1) : part))
    .join('-');
}

/** Request headers as Zot logs them: canonical keys sorted (Go marshals maps sorted), Host and Transfer-Encoding dropped, Authorization masked. */
function toZotHeaders(headers: Record<string, string[] | undefined>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const entries = Object.entries(headers)
    .filter((entry): entry is [string, string[]] => entry[1] !== undefined)
    .map(([name, values]) => [toCanonicalHeaderKey(name), values] as const)
    .filter(([name]) => name !== 'Host' && name !== 'Transfer-Encoding')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [name, values] of entries) out[name] = name === 'Authorization' ? ['******'] : values;
  return out;
}

export function buildZotSessionLine(input: ZotSessionLineInput): string {
  const clientIP = input.clientIp.includes(':')
    ? `[${input.clientIp}]:${input.clientPort}`
    : `${input.clientIp}:${input.clientPort}`;
  return JSON.stringify({
    time: toGoRfc3339Nano(input.timeMs),
    level: 'info',
    message: 'HTTP API',
    module: 'http',
    component: 'session',
    clientIP,
    method: input.method,
    path: input.path,
    statusCode: input.statusCode,
    latency: toGoDurationTruncatedToSeconds(input.latencyMs),
    bodySize: input.bodySizeBytes,
    headers: toZotHeaders(input.headers),
    caller: 'zotregistry.dev/zot/v2/pkg/api/session.go:92',
    func: 'zotregistry.dev/zot/v2/pkg/api.SessionLogger.func1.1',
    goroutine: input.goroutine,
  });
}

/** Go's `URL.Path` (decoded) plus `?` + the raw query, as Zot's session logger writes `path`. */
export function toZotPath(rawUrl: string): string {
  const queryAt = rawUrl.indexOf('?');
  const rawPath = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
  let decoded = rawPath;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    // keep the raw path when it is not valid percent-encoding
  }
  return queryAt === -1 ? decoded : `${decoded}?${rawUrl.slice(queryAt + 1)}`;
}
