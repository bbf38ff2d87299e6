import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureRun } from '../../scripts/make-fixture-run.js';
import { createTempDir, type TempDir } from '../helpers/daemons/index.js';
import { startServedRoot, type ServedRoot } from '../helpers/serve-client.js';

// What LAN viewers of `serve` get, on 127.0.0.1 with a temp runs root: no server path and no internal error text
// (a broken run is listed and answered as broken with a short reason, its details logged once on serve's stderr);
// the page's script gzipped for a client that accepts it; `/` with an ETag and a 304.

const GOOD = '20260314T092000Z';
const BROKEN = '20260315T080000Z';
let temp: TempDir;
let root: string;
let served: ServedRoot;
const logLines: string[] = [];

beforeAll(async () => {
  temp = createTempDir('serve-viewers');
  root = path.join(temp.path, 'secret-root-name');
  await mkdir(root);
  await writeFixtureRun({
    dir: path.join(root, GOOD),
    stamp: GOOD,
    nodeCount: 2,
    durationSeconds: 300,
    seed: 3,
    sampleIntervalMs: 5000,
  });
  await mkdir(path.join(root, BROKEN));
  await writeFile(path.join(root, BROKEN, 'run.json'), '{"stamp": "20260315T080000Z", "harn');
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  served = await startServedRoot({
    root,
    bind: '127.0.0.1',
    port: 0,
    refreshMs: 200,
    logger: pino({ level: 'warn', base: undefined }, sink),
  });
});

afterAll(async () => {
  await served?.close();
  temp?.remove();
});

describe('serve: nothing of the server for viewers', () => {
  it('the index names no server path, and lists a broken run as broken with a short reason', async () => {
    const { status, body } = await served.get('/');
    expect(status).toBe(200);
    expect(body).not.toContain(temp.path);
    expect(body).not.toContain('secret-root-name');
    expect(body).toContain('Runs served live by rocm-perf serve.');
    expect(body).toMatch(new RegExp(`${BROKEN}</a> <span>[^<]*broken: run\\.json is not valid JSON</span>`));
    expect(body).not.toMatch(/Unexpected|JSON at position|unterminated/i);
  });

  it('a broken run answers with the short reason only; the details are logged once on stderr', async () => {
    for (const pathname of [`/runs/${BROKEN}/`, `/runs/${BROKEN}/data.json`, `/runs/${BROKEN}/`]) {
      const { status, body } = await served.get(pathname);
      expect(status).toBe(500);
      expect(body).toBe('this run cannot be shown: run.json is not valid JSON\n');
    }
    const details = logLines.filter((line) => line.includes(`run ${BROKEN}`));
    expect(details).toHaveLength(1);
    expect(details[0]).toContain(path.join(root, BROKEN, 'run.json'));
    expect(details[0]).toContain('not JSON');
  });

  it('the trends page names no server path', async () => {
    const { status, body } = await served.get('/trends.html');
    expect(status).toBe(200);
    expect(body).not.toContain(temp.path);
  });
});

describe('serve: the page script compressed, the index cached', () => {
  it('gzips report-page.js for a client that accepts gzip, with the same bytes inside', async () => {
    const plain = await served.client.request({ path: '/assets/report-page.js', method: 'GET' });
    const plainBody = Buffer.from(await plain.body.arrayBuffer());
    expect(plain.headers['content-encoding']).toBeUndefined();
    const zipped = await served.client.request({
      path: '/assets/report-page.js',
      method: 'GET',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    const zippedBody = Buffer.from(await zipped.body.arrayBuffer());
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    expect(Number(zipped.headers['content-length'])).toBe(zippedBody.length);
    expect(zippedBody.length).toBeLessThan(plainBody.length / 2);
    expect(gunzipSync(zippedBody).equals(plainBody)).toBe(true);
  });

  it('gives / an ETag and answers 304 to If-None-Match while the list is unchanged', async () => {
    const first = await served.get('/');
    const etag = first.headers.etag;
    expect(typeof etag).toBe('string');
    expect(first.headers['cache-control']).toBe('no-cache');
    const again = await served.get('/', { headers: { 'if-none-match': String(etag) } });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    const stale = await served.get('/', { headers: { 'if-none-match': 'W/"something-else"' } });
    expect(stale.status).toBe(200);
    expect(stale.body).toBe(first.body);
  });

  it('a new run changes the ETag of /', async () => {
    const before = String((await served.get('/')).headers.etag);
    await mkdir(path.join(root, '20260316T000000Z'));
    await writeFile(path.join(root, '20260316T000000Z', 'samples.jsonl'), '');
    await writeFile(path.join(root, '20260316T000000Z', 'trace-a.json'), ''); // a run: a trace with its samples
    const after = await served.get('/', { headers: { 'if-none-match': before } });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before);
  });
});
