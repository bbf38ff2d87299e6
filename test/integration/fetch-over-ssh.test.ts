// fetchOverSsh: one GET to an address as the node sees it, through a real sshd (Debian's openssh-server, loopback,
// throwaway key) by a direct-tcpip channel, as the harness reads buildkitd's /debug/cache/all. The HTTP server is
// a stand-in that serves the real capture (test/fixtures/buildkit-explain/capture-cache-all.v0.32.2.json) and logs
// each request it receives: the truth of what crossed the wire. The box test (test/e2e/harness-why.test.ts, "the
// evidence …") does the same against real buildkitd inside a node's namespace, where only the ssh link reaches it.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchOverSsh } from '../../src/run/executors/fetch-over-ssh.js';
import { findFreePort, startSshd, type RunningSshd } from '../helpers/daemons/index.js';

// No ssh agent: the test's sshd takes the key it was given (the CLI hands SSH_AUTH_SOCK down).
const fetchOverSsh = createFetchOverSsh(undefined);

const body = readFileSync(
  new URL('../fixtures/buildkit-explain/capture-cache-all.v0.32.2.json', import.meta.url),
);

let sshd: RunningSshd;
let server: Server;
let port: number;
const received: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  sshd = await startSshd();
  server = createServer((req, res) => {
    received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    if (req.url !== '/debug/cache/all') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found\n');
      return;
    }
    // buildkitd answers JSON only to Accept: application/json (cmd/buildkitd/debug.go), text otherwise.
    if (req.headers.accept !== 'application/json') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('sha256:… (json):\n');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
}, 30_000);

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await sshd.stop();
});

const ssh = () => ({
  host: sshd.host,
  port: sshd.port,
  user: sshd.user,
  identity_file: sshd.privateKeyPath,
  known_hosts: sshd.knownHostsPath,
});

describe('fetchOverSsh', () => {
  it('carries one GET with its headers over the ssh link and returns the body byte for byte', async () => {
    received.length = 0;
    const result = await fetchOverSsh({
      ssh: ssh(),
      host: '127.0.0.1',
      port,
      path: '/debug/cache/all',
      headers: { accept: 'application/json' },
      maxBytes: 1024 * 1024,
      timeoutMs: 10_000,
    });
    expect(result.ok && result.status).toBe(200);
    expect(result.ok && result.body.equals(body)).toBe(true);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'GET', url: '/debug/cache/all' });
    expect(received[0]?.headers.accept).toBe('application/json');
  });

  it('cuts a body over the cap and says so, saving nothing', async () => {
    const result = await fetchOverSsh({
      ssh: ssh(),
      host: '127.0.0.1',
      port,
      path: '/debug/cache/all',
      headers: { accept: 'application/json' },
      maxBytes: body.length - 1,
      timeoutMs: 10_000,
    });
    expect(result).toMatchObject({ ok: false, stage: 'too-large' });
    expect(!result.ok && result.reason).toContain(`over the cap of ${body.length - 1}`);
  });

  it('returns a 404 as an answer (an older buildkitd serves no /debug/cache/all)', async () => {
    const result = await fetchOverSsh({
      ssh: ssh(),
      host: '127.0.0.1',
      port,
      path: '/debug/cache/none',
      maxBytes: 1024,
      timeoutMs: 10_000,
    });
    expect(result.ok && result.status).toBe(404);
  });

  it('an address where nothing listens: the node refuses the channel (stage forward), named', async () => {
    const closed = await findFreePort('127.0.0.1');
    const result = await fetchOverSsh({
      ssh: ssh(),
      host: '127.0.0.1',
      port: closed,
      path: '/debug/cache/all',
      maxBytes: 1024,
      timeoutMs: 10_000,
    });
    expect(result).toMatchObject({ ok: false, stage: 'forward' });
    expect(!result.ok && result.reason).toContain(`127.0.0.1:${closed}`);
  });

  it('no ssh link, no answer: the HTTP server is never asked directly', async () => {
    received.length = 0;
    const result = await fetchOverSsh({
      ssh: { ...ssh(), port: await findFreePort('127.0.0.1') },
      host: '127.0.0.1',
      port,
      path: '/debug/cache/all',
      maxBytes: 1024 * 1024,
      timeoutMs: 5_000,
    });
    expect(result).toMatchObject({ ok: false, stage: 'ssh' });
    expect(received).toHaveLength(0);
  });
});
