// What sccache (opendal's WebDAV service) sends to nginx (logs-and-metrics.md §2.1): lookups are a plain GET of
// <root>/a/b/c/<key> (200 hit, 404 miss); a write PROPFINDs the parent (walking up on 404), MKCOLs what is missing,
// then PUTs once. The start-up check GETs and writes `.sccache_check`.
import { httpCall } from './http-call.js';

export interface SccacheClient {
  check: () => Promise<void>;
  lookup: (key: string) => Promise<boolean>;
  write: (key: string, content: Buffer) => Promise<void>;
}

const sccacheUserAgent = 'sccache/0.10.0';
const propfindBody = Buffer.from(
  '<?xml version="1.0" encoding="utf-8" ?><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>',
);

/** `<endpoint>/<prefix>/` with single slashes. */
function toSccacheRoot(endpoint: string, prefix: string): string {
  const trimmed = prefix.replace(/^\/+|\/+$/g, '');
  return `${endpoint.replace(/\/+$/, '')}/${trimmed ? `${trimmed}/` : ''}`;
}

function toSccacheKeyPath(key: string): string {
  return `${key[0]}/${key[1]}/${key[2]}/${key}`;
}

export function createSccacheClient(options: { endpoint: string; prefix: string }): SccacheClient {
  const root = toSccacheRoot(options.endpoint, options.prefix);
  const call = (
    method: string,
    url: string,
    extra: { body?: Buffer; headers?: Record<string, string> } = {},
  ) => httpCall({ method, url, userAgent: sccacheUserAgent, ...extra });
  const endpoint = `${options.endpoint.replace(/\/+$/, '')}/`;
  const prefixParts = options.prefix.split('/').filter(Boolean);
  const toDir = (parts: readonly string[]) => endpoint + parts.map((p) => `${p}/`).join('');
  /** PROPFIND the parent, walking up (towards the endpoint) on 404, then MKCOL the missing ones outermost first. */
  const ensureParent = async (relativeDir: string) => {
    const parts = [...prefixParts, ...relativeDir.split('/').filter(Boolean)];
    let existing = parts.length;
    for (; existing >= 0; existing--) {
      const dir = toDir(parts.slice(0, existing));
      const result = await call('PROPFIND', dir, {
        body: propfindBody,
        headers: { depth: '0', 'content-type': 'application/xml' },
      });
      if (result.status >= 200 && result.status < 300) break;
      if (result.status !== 404) throw new Error(`PROPFIND ${dir}: unexpected status ${result.status}`);
    }
    for (let depth = Math.max(existing, 0) + 1; depth <= parts.length; depth++) {
      const dir = toDir(parts.slice(0, depth));
      const result = await call('MKCOL', dir);
      if (![201, 405].includes(result.status))
        throw new Error(`MKCOL ${dir}: unexpected status ${result.status}`);
    }
  };
  const put = async (relativePath: string, content: Buffer) => {
    await ensureParent(relativePath.split('/').slice(0, -1).join('/'));
    const result = await call('PUT', root + relativePath, { body: content });
    if (![200, 201, 204].includes(result.status))
      throw new Error(`PUT ${root}${relativePath}: unexpected status ${result.status}`);
  };
  return {
    check: async () => {
      await call('GET', `${root}.sccache_check`);
      await put('.sccache_check', Buffer.from('Hello, World!'));
    },
    lookup: async (key) => (await call('GET', root + toSccacheKeyPath(key))).status === 200,
    write: (key, content) => put(toSccacheKeyPath(key), content),
  };
}
