// URL path → route, before anything touches the disk. Pure. Rejects traversal in every spelling: `..` and `.`
// segments, encoded (%2e%2e, %2f) and double-encoded (%252e) forms, backslashes and NUL. A run stamp is any one
// segment isServableStamp takes (spaces, `<` and `"` included: links encode them); files inside a run come from an
// allow-list.

import { isServableStamp } from '../shared/is-servable-stamp.js';

export type Route =
  | { kind: 'index' }
  | { kind: 'trends' }
  | { kind: 'metrics' }
  | { kind: 'asset'; name: string }
  | { kind: 'run-redirect'; stamp: string }
  | { kind: 'run-page'; stamp: string }
  | { kind: 'run-data'; stamp: string }
  | { kind: 'run-file'; stamp: string; file: string }
  | { kind: 'bad-request'; reason: string }
  | { kind: 'not-found' };

const ASSET_NAMES = new Set(['report-page.js', 'runs-index.js']);
const RUN_FILES_SERVED = new Set(['report.md', 'timeline.svg', 'targets.svg']);

export function routeRequest(rawUrl: string): Route {
  const rawPath = rawUrl.split(/[?#]/)[0] ?? '';
  if (!rawPath.startsWith('/') || /[\\\0]/.test(rawPath))
    return { kind: 'bad-request', reason: 'malformed path' };
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return { kind: 'bad-request', reason: 'malformed percent-encoding' };
  }
  if (/%[0-9a-f]{2}/i.test(decoded) || /[\\\0]/.test(decoded))
    return { kind: 'bad-request', reason: 'double-encoded path' };
  const segments = decoded.split('/').slice(1);
  if (segments.some((s) => s === '.' || s === '..')) return { kind: 'bad-request', reason: 'dot segment' };
  const trailing = segments[segments.length - 1] === '';
  const parts = segments.filter((s) => s !== '');
  if (parts.length === 0) return { kind: 'index' };
  if (parts[0] === 'index.html' && parts.length === 1) return { kind: 'index' };
  if (parts[0] === 'trends.html' && parts.length === 1) return { kind: 'trends' };
  if (parts[0] === 'metrics' && parts.length === 1) return { kind: 'metrics' };
  if (parts[0] === 'assets' && parts.length === 2 && ASSET_NAMES.has(parts[1]!))
    return { kind: 'asset', name: parts[1]! };
  if (parts[0] !== 'runs' || parts.length < 2 || parts.length > 3) return { kind: 'not-found' };
  const stamp = parts[1]!;
  if (!isServableStamp(stamp)) return { kind: 'not-found' };
  const file = parts[2];
  if (file === undefined) return trailing ? { kind: 'run-page', stamp } : { kind: 'run-redirect', stamp };
  if (file === 'index.html') return { kind: 'run-page', stamp };
  if (file === 'data.json') return { kind: 'run-data', stamp };
  if (RUN_FILES_SERVED.has(file)) return { kind: 'run-file', stamp, file };
  return { kind: 'not-found' };
}

/** Security headers on every response. The page needs inline styles (ECharts tooltips) but no inline script. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
};
