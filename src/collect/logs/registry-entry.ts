// One HTTP request as a registry log states it, before classification (shared by the Zot and Distribution parsers).

export interface RegistryEntry {
  tsMs: number;
  /** Client IP without the port. */
  clientAddress: string;
  method: string;
  /** Request path including the raw query. */
  path: string;
  status: number;
  durationMs: number | null;
  /** Request body size from the request's Content-Length header; null when the log does not carry it. */
  requestBytes: number | null;
  /** Response body bytes written. */
  responseBytes: number | null;
}

/** `10.0.0.1:5000` → `10.0.0.1`; `[::1]:5000` → `::1`; an address without a port is returned as is. */
export function toClientIp(address: string): string {
  if (address.startsWith('[')) {
    const close = address.indexOf(']');
    return close > 0 ? address.slice(1, close) : address;
  }
  const colon = address.lastIndexOf(':');
  if (colon < 0 || address.indexOf(':') !== colon) return address;
  return address.slice(0, colon);
}

/** A Content-Length header value as a byte count, or null when absent or not a non-negative integer. */
export function toContentLength(value: unknown): number | null {
  const text = Array.isArray(value) ? (value[0] as unknown) : value;
  if (typeof text !== 'string' && typeof text !== 'number') return null;
  if (typeof text === 'string' && !/^\d{1,15}$/.test(text)) return null;
  const bytes = Number(text);
  return Number.isSafeInteger(bytes) && bytes >= 0 ? bytes : null;
}
