// Writes test/fixtures/registry/zot-{slog,zerolog}-push.jsonl: one scripted push session rendered in both of Zot's
// session-log layouts by bench/generate-logs.ts (Debian packages no Zot, so these are generated in the key orders
// Zot's source writes, see docs/collectors-logs.md), plus the non-session lines a real zot.log holds.
// Run: npx tsx scripts/capture-zot-fixtures.ts
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ZotEvent, ZotLayout } from '../bench/generate-logs.js';
import { renderZotLine, renderZotNoise, toRfc3339Nano } from '../bench/generate-logs.js';

const t0 = Date.UTC(2026, 2, 14, 9, 21, 7);
const digestA = `sha256:${'9f2c1e0b'.repeat(8)}`;
const digestB = `sha256:${'0b6e2d9c'.repeat(8)}`;
const digestC = `sha256:${'5d4c0f0e'.repeat(8)}`;
const ua = { 'Accept-Encoding': ['gzip'], 'User-Agent': ['buildkit/v0.21'] };
const octets = { 'Content-Type': ['application/octet-stream'] };

function event(
  offsetMs: number,
  fields: Partial<ZotEvent> & Pick<ZotEvent, 'method' | 'path' | 'statusCode'>,
): ZotEvent {
  return {
    tsMs: t0 + offsetMs,
    clientIP: '10.20.0.14:51822',
    latency: '0s',
    bodySize: 0,
    headers: ua,
    goroutine: 4200 + offsetMs,
    ...fields,
  };
}

/** The scripted session: what a correct parser must find is in zot-push.expected.json. */
export const zotSession: ZotEvent[] = [
  event(0, { method: 'HEAD', path: `/v2/rocm/cache/blobs/${digestA}`, statusCode: 404, bodySize: 157 }),
  event(10, {
    method: 'POST',
    path: '/v2/rocm/cache/blobs/uploads/',
    statusCode: 202,
    headers: { ...ua, 'Content-Length': ['0'] },
  }),
  event(20, {
    method: 'PATCH',
    path: '/v2/rocm/cache/blobs/uploads/5d4c0f0e-8f62-4b7f-9a52-0c3f6d7e9a11',
    statusCode: 202,
    headers: { ...ua, ...octets, 'Content-Length': ['20971520'] },
  }),
  event(30, {
    method: 'PATCH',
    path: '/v2/rocm/cache/blobs/uploads/5d4c0f0e-8f62-4b7f-9a52-0c3f6d7e9a11',
    statusCode: 202,
    headers: { ...ua, ...octets, 'Content-Length': ['10485760'] },
  }),
  event(2040, {
    method: 'PUT',
    path: `/v2/rocm/cache/blobs/uploads/5d4c0f0e-8f62-4b7f-9a52-0c3f6d7e9a11?digest=${digestA.replace(':', '%3A')}`,
    statusCode: 201,
    latency: '2s',
    headers: { ...ua, 'Content-Length': ['0'] },
  }),
  event(2050, {
    method: 'POST',
    path: `/v2/rocm/cache/blobs/uploads/?digest=${digestB.replace(':', '%3A')}`,
    statusCode: 201,
    latency: '81.964986ms',
    headers: { ...ua, ...octets, 'Content-Length': ['772806'] },
  }),
  event(2060, {
    clientIP: '[fd00::22]:40110',
    username: 'ci-bot',
    method: 'PATCH',
    path: '/v2/rocm/api/blobs/uploads/0b6e2d9c-31a4-4c55-b0f2-7f0e1d2c3b4a',
    statusCode: 202,
    headers: { ...ua, Authorization: ['******'], ...octets },
  }),
  event(3070, {
    clientIP: '[fd00::22]:40110',
    username: 'ci-bot',
    method: 'PUT',
    path: `/v2/rocm/api/blobs/uploads/0b6e2d9c-31a4-4c55-b0f2-7f0e1d2c3b4a?digest=${digestC.replace(':', '%3A')}`,
    statusCode: 201,
    latency: '1s',
    headers: { ...ua, 'Content-Length': ['0'] },
  }),
  event(3080, {
    method: 'POST',
    path: `/v2/rocm/api/blobs/uploads/?mount=${digestA.replace(':', '%3A')}&from=rocm/cache`,
    statusCode: 201,
    headers: { ...ua, 'Content-Length': ['0'] },
  }),
  event(3090, {
    method: 'PUT',
    path: '/v2/rocm/cache/manifests/api',
    statusCode: 201,
    headers: {
      ...ua,
      'Content-Length': ['2841'],
      'Content-Type': ['application/vnd.oci.image.manifest.v1+json'],
    },
  }),
  event(3100, {
    clientIP: '10.20.0.22:40112',
    method: 'PUT',
    path: '/v2/rocm/api/manifests/latest',
    statusCode: 201,
    headers: {
      ...ua,
      'Content-Length': ['1924'],
      'Content-Type': ['application/vnd.oci.image.index.v1+json'],
    },
  }),
  event(3110, {
    method: 'PUT',
    path: '/v2/rocm/api/manifests/latest',
    statusCode: 400,
    bodySize: 120,
    headers: { ...ua, 'Content-Length': ['17'] },
  }),
  event(65_000, {
    clientIP: '10.20.0.41:36002',
    method: 'GET',
    path: `/v2/rocm/api/blobs/${digestC}`,
    statusCode: 200,
    latency: '1m5s',
    bodySize: 31457280,
  }),
  event(65_010, {
    clientIP: '10.20.0.41:36002',
    method: 'GET',
    path: '/v2/rocm/api/manifests/latest',
    statusCode: 200,
    latency: '8.246µs',
    bodySize: 1924,
  }),
  event(65_020, {
    clientIP: '10.20.0.41:36002',
    method: 'GET',
    path: '/v2/rocm/api/tags/list',
    statusCode: 200,
    bodySize: 40,
  }),
];

function renderFixture(layout: ZotLayout): string {
  const lines = ['zot starting (plain text banner)'];
  lines.push(renderZotNoise(t0 - 1000, layout, 1));
  zotSession.forEach((entry, index) => {
    lines.push(renderZotLine(entry, layout));
    if (index === 9) {
      lines.push(
        `{"time":"${toRfc3339Nano(entry.tsMs)}","level":"info","message":"HTTP API Audit","component":"session","clientIP":"10.20.0.14:51866","subject":"anonymous","action":"PUT","object":"/v2/rocm/cache/manifests/api","status":201}`,
      );
    }
  });
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const out = path.resolve(import.meta.dirname, '../test/fixtures/registry');
  for (const layout of ['slog', 'zerolog'] as const)
    writeFileSync(path.join(out, `zot-${layout}-push.jsonl`), renderFixture(layout));
  writeFileSync(
    path.join(out, 'zot-push.expected.json'),
    `${JSON.stringify(
      {
        lines: zotSession.length + 3,
        records: zotSession.length,
        cache: {
          blobsWritten: 2,
          manifestsWritten: 1,
          bytesWritten: 20971520 + 10485760 + 772806 + 2841,
          bytesUnknown: 0,
        },
        image: { blobsWritten: 1, manifestsWritten: 1, bytesWritten: 1924, bytesUnknown: 1 },
      },
      null,
      2,
    )}\n`,
  );
  await Promise.resolve();
  console.log(`wrote ${out}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
