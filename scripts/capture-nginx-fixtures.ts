// Captures test/fixtures/nginx/*.log from Debian's nginx (+ dav-ext) running the shipped conf: sccache-like WebDAV
// traffic (startup check, misses, PROPFIND/MKCOL/PUT writes, hits, a ranged GET, odd bytes), then edge-case
// variants of the captured log (CRLF, truncated last line). Run: npx tsx scripts/capture-nginx-fixtures.ts
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startNginx } from '../test/helpers/daemons/index.js';

export interface DavResponse {
  status: number;
  body: Buffer;
}

export function sendDav(
  url: string,
  method: string,
  options: { body?: Buffer | string; headers?: Record<string, string> } = {},
): Promise<DavResponse> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : Buffer.from(options.body);
    const headers = {
      'User-Agent': 'sccache/0.17.0',
      ...(body === undefined ? {} : { 'Content-Length': String(body.length) }),
      ...options.headers,
    };
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A GET whose request line carries raw bytes ≥ 0x80 (nginx logs them unescaped under escape=json). */
export function sendRawGet(base: URL, rawPath: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(base.port), base.hostname, () => {
      socket.end(
        Buffer.concat([
          Buffer.from('GET '),
          rawPath,
          Buffer.from(
            ` HTTP/1.1\r\nHost: ${base.host}\r\nUser-Agent: odd "agent" \\ é\r\nConnection: close\r\n\r\n`,
          ),
        ]),
      );
    });
    socket.on('data', () => undefined);
    socket.on('close', () => resolve());
    socket.on('error', reject);
  });
}

export const entryKeys = [
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '7c21d0a4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2',
  '7c9e6679742540f1e2e0d3a1b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3',
];

const keyPath = (key: string) => `${key[0]}/${key[1]}/${key[2]}/${key}`;

/** What opendal's WebDAV writer does for a new entry: PROPFIND up the tree until found, MKCOL down, then PUT. */
async function writeEntry(root: string, key: string, body: Buffer): Promise<void> {
  const dirs = [`${key[0]}/${key[1]}/${key[2]}/`, `${key[0]}/${key[1]}/`, `${key[0]}/`];
  const missing: string[] = [];
  for (const dir of dirs) {
    const found = await sendDav(`${root}${dir}`, 'PROPFIND', {
      body: '<?xml version="1.0"?><propfind xmlns="DAV:"><allprop/></propfind>',
      headers: { Depth: '0' },
    });
    if (found.status === 207) break;
    missing.unshift(dir);
  }
  for (const dir of missing) await sendDav(`${root}${dir}`, 'MKCOL');
  await sendDav(`${root}${keyPath(key)}`, 'PUT', { body });
}

export interface TrafficExpectation {
  hits: number;
  misses: number;
  writes: number;
  bytesRead: number;
  bytesWritten: number;
}

/** sccache-like traffic against `url` (…/sccache/) under `prefix`; returns what a correct parser must count. */
export async function runSccacheTraffic(url: string, prefix: string): Promise<TrafficExpectation> {
  const root = `${url}${prefix}/`;
  await sendDav(`${root}.sccache_check`, 'GET');
  await sendDav(`${root}.sccache_check`, 'PUT', { body: 'Hello, World!' });
  const sizes = [2_097_152, 65_536, 1234];
  for (const [index, key] of entryKeys.entries()) {
    await sendDav(`${root}${keyPath(key)}`, 'GET');
    await writeEntry(root, key, Buffer.alloc(sizes[index] ?? 0, index + 1));
  }
  await sendDav(`${root}${keyPath(entryKeys[0] ?? '')}`, 'GET');
  await sendDav(`${root}${keyPath(entryKeys[1] ?? '')}`, 'GET');
  await sendDav(`${root}${keyPath(entryKeys[2] ?? '')}`, 'GET', { headers: { Range: 'bytes=0-99' } });
  await sendDav(`${root}${keyPath(entryKeys[2] ?? '')}`, 'PUT', { body: Buffer.alloc(1234, 9) });
  await sendRawGet(
    new URL(url),
    Buffer.concat([
      Buffer.from(`/sccache/${prefix}/caf`),
      Buffer.from([0xc3, 0xa9, 0xff]),
      Buffer.from('/x'),
    ]),
  );
  return {
    hits: 3,
    misses: 3,
    writes: 4,
    bytesRead: 2_097_152 + 65_536 + 100,
    bytesWritten: 2_097_152 + 65_536 + 1234 + 1234,
  };
}

async function main(): Promise<void> {
  const repoRoot = path.resolve(import.meta.dirname, '..');
  const out = path.join(repoRoot, 'test/fixtures/nginx');
  const nginx = await startNginx({ confPath: path.join(repoRoot, '.builders/nginx-sccache.conf') });
  try {
    const expected = await runSccacheTraffic(nginx.url, 'rocm/gfx1201');
    await runSccacheTraffic(nginx.url, 'rocm/gfx1201-coldrun-1');
    await new Promise((resolve) => setTimeout(resolve, 200));
    copyFileSync(nginx.logPath, path.join(out, 'sccache-session.log'));
    writeFileSync(
      path.join(out, 'sccache-session.expected.json'),
      `${JSON.stringify({ livePrefix: 'rocm/gfx1201', runPrefix: 'rocm/gfx1201-coldrun-1', perPrefix: expected }, null, 2)}\n`,
    );
  } finally {
    await nginx.stop();
  }
  const text = readFileSync(path.join(out, 'sccache-session.log'));
  writeFileSync(
    path.join(out, 'crlf-line-endings.log'),
    text.toString('latin1').replaceAll('\n', '\r\n'),
    'latin1',
  );
  writeFileSync(path.join(out, 'partial-last-line.log'), text.subarray(0, text.length - 40));
  console.log(`wrote ${out}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
