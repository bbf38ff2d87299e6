import { appendFile, copyFile, cp, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { connect, createServer as createSocketServer, type Server as SocketServer } from 'node:net';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataFileSchema } from '../../src/artifacts/index.js';
import { writeFixtureRun } from '../../scripts/make-fixture-run.js';
import { createTempDir, type TempDir } from '../helpers/daemons/index.js';
import { SECURITY_HEADERS } from '../../src/serve/route-request.js';
import { startServedRoot, type ServedRoot } from '../helpers/serve-client.js';

// `serve` on 127.0.0.1 with a temp runs root: traversal in every spelling, symlinks out, wrong methods, slow
// headers, ETags (data.json and the files on disk), security headers on every response, and a run dir being
// written while it is polled. The root is a subdir, so a `..` that got through would find a secret above it.

const STAMP = '20260314T092000Z';
const OLD = '20260101T000000Z';
let temp: TempDir;
let root: string;
let outside: TempDir;
let socket: SocketServer;
let served: ServedRoot;
const get: ServedRoot['get'] = (pathname, init) => served.get(pathname, init);

beforeAll(async () => {
  temp = createTempDir('serve');
  root = path.join(temp.path, 'runs');
  await mkdir(root);
  await writeFile(path.join(temp.path, 'report.md'), 'TOP-SECRET above the root\n');
  outside = createTempDir('serve-outside');
  await writeFile(path.join(outside.path, 'secret.txt'), 'TOP-SECRET\n');
  await writeFixtureRun({
    dir: path.join(root, STAMP),
    stamp: STAMP,
    nodeCount: 2,
    durationSeconds: 600,
    seed: 9,
    sampleIntervalMs: 5000,
  });
  await writeFile(path.join(root, STAMP, 'report.md'), '# report\n');
  await mkdir(path.join(root, STAMP, 'targets.svg'));
  await mkdir(path.join(root, OLD));
  await writeFile(path.join(root, OLD, 'run.json'), '{}');
  await writeFile(path.join(root, OLD, 'report.md'), '# old report\n');
  socket = createSocketServer();
  await new Promise<void>((resolve) => socket.listen(path.join(root, OLD, 'targets.svg'), resolve));
  await symlink(path.join(outside.path, 'secret.txt'), path.join(root, STAMP, 'timeline.svg'));
  await mkdir(path.join(outside.path, 'evil-run'));
  await writeFile(path.join(outside.path, 'evil-run', 'samples.jsonl'), '');
  await writeFile(path.join(outside.path, 'evil-run', 'report.md'), 'TOP-SECRET\n');
  await symlink(path.join(outside.path, 'evil-run'), path.join(root, '20991231T000000Z'));
  served = await startServedRoot({
    root,
    bind: '127.0.0.1',
    port: 0,
    refreshMs: 200,
    headersTimeoutMs: 1000,
    requestTimeoutMs: 5000,
  });
});

afterAll(async () => {
  await served?.close();
  await new Promise((resolve) => (socket ? socket.close(resolve) : resolve(undefined)));
  temp?.remove();
  outside?.remove();
});

describe('serve: what it serves', () => {
  it('lists runs newest first, skipping a symlink that points out of the root', async () => {
    const { status, body, headers } = await get('/');
    expect(status).toBe(200);
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(body.indexOf(STAMP)).toBeGreaterThan(0);
    expect(body.indexOf(STAMP)).toBeLessThan(body.indexOf(OLD));
    expect(body).not.toContain('20991231T000000Z');
  });

  it('serves a run page (a finished run: with its chart pre-rendered), its data.json (valid against the schema) and the offline assets', async () => {
    const page = await get(`/runs/${STAMP}/`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('src="/assets/report-page.js"');
    expect(page.body).toMatch(/<div id="chart-prerender"><svg [^>]*viewBox=/);
    const data = await get(`/runs/${STAMP}/data.json`);
    expect(data.status).toBe(200);
    expect(DataFileSchema.parse(JSON.parse(data.body)).run.harness).toBe('warm');
    const script = await get('/assets/report-page.js');
    expect(script.status).toBe(200);
    expect(script.body.length).toBeGreaterThan(500_000); // it carries ECharts' parts
    expect((await get('/assets/echarts.min.js')).status).toBe(404);
    expect((await get(`/runs/${STAMP}`)).status).toBe(301);
    expect((await get(`/runs/${STAMP}/report.md`)).body).toBe('# report\n');
  });

  it('answers a conditional GET with 304 while nothing changed, and HEAD without a body', async () => {
    const first = await get(`/runs/${STAMP}/data.json`);
    const etag = String(first.headers.etag);
    const again = await get(`/runs/${STAMP}/data.json`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    const gzipped = await served.client.request({
      path: `/runs/${STAMP}/data.json`,
      method: 'GET',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gzipped.body.arrayBuffer())).toString()).toBe(first.body);
    const head = await get(`/runs/${STAMP}/data.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(first.body));
    expect(head.body).toBe('');
  });
});

describe('serve: nothing outside the runs root', () => {
  it.each([
    '/runs/../../etc/passwd',
    '/../../../etc/passwd',
    '/runs/../report.md',
    '/runs/%2e%2e/report.md',
    '/runs/%2E%2E/report.md',
    '/runs/..%2freport.md',
    '/runs/%2e%2e/%2e%2e/etc/passwd',
    '/runs/..%2f..%2f..%2fetc%2fpasswd',
    '/runs/%252e%252e/%252e%252e/etc/passwd',
    '/runs/%25252e%25252e/etc/passwd',
    '/runs/..%5c..%5cetc%5cpasswd',
    '/runs/x/%00/data.json',
    '/assets/..%2f..%2fpackage.json',
    '/runs/%2e/data.json',
    '//etc/passwd',
    '/runs//etc/passwd',
    '/runs/%2fetc%2fpasswd/report.md',
    `/runs/${STAMP}/%2Fetc%2Fpasswd`,
    `/runs/${STAMP}/run.json`,
    `/runs/${STAMP}/../../../tmp/secret.txt`,
  ])('refuses %s', async (pathname) => {
    const { status, body } = await get(pathname);
    expect([400, 404]).toContain(status);
    expect(body).not.toContain('TOP-SECRET');
    expect(body).not.toContain('root:');
  });

  it.each([
    `/runs/${STAMP}/timeline.svg`,
    '/runs/20991231T000000Z/report.md',
    '/runs/20991231T000000Z/data.json',
    '/runs/20991231T000000Z/',
  ])('does not follow a symlink out of the root: %s is 404', async (pathname) => {
    const { status, body } = await get(pathname);
    expect(status).toBe(404);
    expect(body).not.toContain('TOP-SECRET');
  });
});

describe('serve: files on disk', () => {
  it.each([`/runs/${STAMP}/report.md`, '/assets/report-page.js'])(
    'gives %s an ETag and answers If-None-Match with 304, HEAD without a body',
    async (pathname) => {
      const first = await get(pathname);
      expect(first.status).toBe(200);
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^W\/".+"$/);
      const again = await get(pathname, { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(again.body).toBe('');
      expect((await get(pathname, { headers: { 'if-none-match': 'W/"other"' } })).status).toBe(200);
      const head = await get(pathname, { method: 'HEAD' });
      expect([head.status, head.body, head.headers.etag]).toEqual([200, '', etag]);
      expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(first.body));
    },
  );

  it('gives a rewritten file a new ETag and the new content', async () => {
    const before = await get(`/runs/${OLD}/report.md`);
    expect(before.headers['content-type']).toBe('text/markdown; charset=utf-8');
    await writeFile(path.join(root, OLD, 'report.md'), '# old report, rewritten\n');
    const after = await get(`/runs/${OLD}/report.md`, {
      headers: { 'if-none-match': String(before.headers.etag) },
    });
    expect(after.status).toBe(200);
    expect(after.body).toBe('# old report, rewritten\n');
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it.each(['bytes=5-2', 'bytes=-3', 'bytes=2-4'])(
    'ignores Range %s and sends the whole file',
    async (range) => {
      const { status, body } = await get(`/runs/${STAMP}/report.md`, { headers: { range } });
      expect([status, body]).toEqual([200, '# report\n']);
    },
  );

  it('answers a special file (a socket named targets.svg) with 404: refused, never opened; keeps serving', async () => {
    expect((await get(`/runs/${OLD}/targets.svg`)).status).toBe(404);
    expect((await get('/')).status).toBe(200);
  });

  it('answers a directory where a file should be with 404', async () => {
    expect((await get(`/runs/${STAMP}/targets.svg`)).status).toBe(404);
  });
});

describe('serve: security headers', () => {
  const expected = Object.fromEntries(
    Object.entries(SECURITY_HEADERS).map(([name, value]) => [name.toLowerCase(), value]),
  );

  it('puts them on every response: pages, data.json, files (200, 304, HEAD) and every error', async () => {
    const etag = async (pathname: string): Promise<string> => String((await get(pathname)).headers.etag);
    const cases: [number, string, { method?: string; headers?: Record<string, string> }][] = [
      [200, '/', {}],
      [200, '/trends.html', {}],
      [200, `/runs/${STAMP}/`, {}],
      [301, `/runs/${STAMP}`, {}],
      [200, `/runs/${STAMP}/data.json`, {}],
      [
        304,
        `/runs/${STAMP}/data.json`,
        { headers: { 'if-none-match': await etag(`/runs/${STAMP}/data.json`) } },
      ],
      [200, `/runs/${STAMP}/report.md`, {}],
      [200, `/runs/${STAMP}/report.md`, { method: 'HEAD' }],
      [
        304,
        `/runs/${STAMP}/report.md`,
        { headers: { 'if-none-match': await etag(`/runs/${STAMP}/report.md`) } },
      ],
      [200, '/assets/report-page.js', {}],
      [200, '/assets/runs-index.js', {}],
      [304, '/assets/report-page.js', { headers: { 'if-none-match': await etag('/assets/report-page.js') } }],
      [404, `/runs/${STAMP}/targets.svg`, {}],
      [404, `/runs/${OLD}/timeline.svg`, {}],
      [404, '/nope', {}],
      [400, '/runs/%2e%2e/report.md', {}],
      [405, `/runs/${STAMP}/report.md`, { method: 'DELETE' }],
    ];
    for (const [status, pathname, init] of cases) {
      const request = `${init.method ?? 'GET'} ${pathname}`;
      const reply = await get(pathname, init);
      expect(reply.status, request).toBe(status);
      for (const [name, value] of Object.entries(expected))
        expect(reply.headers[name], `${request}: ${name}`).toBe(value);
    }
  });
});

describe('serve: read-only and timeouts', () => {
  it.each(
    ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'].flatMap((method) =>
      [`/runs/${STAMP}/data.json`, `/runs/${STAMP}/report.md`, '/assets/report-page.js'].map((p) => [
        method,
        p,
      ]),
    ),
  )('answers %s %s with 405 and Allow', async (method, pathname) => {
    const { status, headers, body } = await get(pathname, { method });
    expect(status).toBe(405);
    expect(headers.allow).toBe('GET, HEAD');
    expect(body).toBe('read-only: GET and HEAD only\n');
  });

  it('drops a client that sends its headers too slowly', async () => {
    const url = new URL(served.server.url);
    const started = Date.now();
    const outcome = await new Promise<string>((resolve) => {
      const socket = connect(Number(url.port), url.hostname, () =>
        socket.write('GET / HTTP/1.1\r\nHost: x\r\n'),
      );
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('close', () => resolve(received));
      socket.on('error', () => resolve(received));
      setTimeout(() => socket.destroy(), 10_000).unref();
    });
    const elapsed = Date.now() - started;
    expect(outcome === '' || outcome.startsWith('HTTP/1.1 408')).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(9000);
  });
});

describe('serve: a run being written while polled', () => {
  it('picks up appended lines and a new trace without a poll waiting on the parse', async () => {
    const full = path.join(root, '.full');
    await writeFixtureRun({
      dir: full,
      stamp: '20260315T000000Z',
      nodeCount: 2,
      durationSeconds: 600,
      seed: 4,
      status: 'running',
      sampleIntervalMs: 5000,
    });
    const live = path.join(root, '20260315T000000Z');
    await mkdir(live);
    for (const name of ['run.json', 'plan.json', 'trace-pytorch.json'])
      await copyFile(path.join(full, name), path.join(live, name));
    const halves: Record<string, [string, string]> = {};
    for (const name of ['samples.jsonl', 'sccache.log', 'zot.jsonl']) {
      const lines = (await readFile(path.join(full, name), 'utf8')).split(/(?<=\n)/);
      const cut = Math.floor(lines.length / 2);
      halves[name] = [lines.slice(0, cut).join(''), lines.slice(cut).join('')];
      await writeFile(path.join(live, name), halves[name][0]);
    }
    const url = '/runs/20260315T000000Z/data.json';
    const first = await get(url);
    const before = DataFileSchema.parse(JSON.parse(first.body));
    expect(before.run.status).toBe('running');
    expect(before.summary.targets.filter((t) => (t.totalSeconds ?? 0) > 0).map((t) => t.target)).toEqual([
      'pytorch',
    ]);
    // The others have no build record yet: null, never 0, for what they will measure.
    const notYet = before.summary.targets.filter((t) => t.target !== 'pytorch');
    expect(notYet.length).toBeGreaterThan(0);
    for (const t of notYet) expect([t.totalSeconds, t.uploadBytes, t.totalSteps]).toEqual([null, null, null]);

    for (const name of Object.keys(halves)) await appendFile(path.join(live, name), halves[name]![1]);
    await cp(path.join(full, 'trace-triton-wheel.json'), path.join(live, 'trace-triton-wheel.json'));

    let etag = String(first.headers.etag);
    let after = before;
    for (
      let attempt = 0;
      attempt < 100 &&
      after.summary.streams['zot.jsonl']!.records <= before.summary.streams['zot.jsonl']!.records;
      attempt++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const poll = await get(url, { headers: { 'if-none-match': etag } });
      expect([200, 304]).toContain(poll.status);
      if (poll.status === 200) {
        etag = String(poll.headers.etag);
        after = DataFileSchema.parse(JSON.parse(poll.body));
      }
    }
    expect(after.summary.streams['zot.jsonl']!.records).toBeGreaterThan(
      before.summary.streams['zot.jsonl']!.records,
    );
    expect(after.summary.streams['samples.jsonl']!.records).toBeGreaterThan(
      before.summary.streams['samples.jsonl']!.records,
    );
    expect(after.summary.targets.find((t) => t.target === 'triton-wheel')!.totalSeconds).toBeGreaterThan(0);
    // run.json already calls every target finished; only the traces not copied yet are flagged.
    const loud = after.summary.warnings.filter((w) => w.level === 'loud').map((w) => w.stream);
    expect(loud.length).toBeGreaterThan(0);
    expect(
      loud.every(
        (s) =>
          s !== null &&
          /^trace-.+\.json$/.test(s) &&
          !['trace-pytorch.json', 'trace-triton-wheel.json'].includes(s),
      ),
    ).toBe(true);
  });
});
