// The shared daemon starters, each against the real Debian daemon on loopback.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startNginx, startNodeExporter, startRegistry, startSshd } from '../helpers/daemons/index.js';

const execFileAsync = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../..');
const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

async function readLines(filePath: string, minLines: number): Promise<string[]> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const lines = readFileSync(filePath, 'utf8').split('\n').filter(Boolean);
    if (lines.length >= minLines) return lines;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return readFileSync(filePath, 'utf8').split('\n').filter(Boolean);
}

describe('startNodeExporter', () => {
  it('serves the lean collector set on loopback', async () => {
    const exporter = await startNodeExporter();
    stops.push(exporter.stop);
    const text = await (await fetch(exporter.url)).text();
    expect(text).toMatch(/^node_cpu_seconds_total\{cpu="0",mode="idle"\} /m);
    expect(text).toMatch(/^node_memory_MemAvailable_bytes /m);
    expect(text).toMatch(/^node_network_transmit_bytes_total\{device="/m);
    expect(text).not.toMatch(/^node_systemd_/m);
  });
});

describe('startNginx', () => {
  it('stores, serves and lists sccache entries with the shipped conf and logs them as JSON', async () => {
    const nginx = await startNginx({ confPath: path.join(repoRoot, '.builders/nginx-sccache.conf') });
    stops.push(nginx.stop);
    const body = Buffer.from('compiled object bytes');
    const key = `${nginx.url}rocm/gfx1201/a/b/c/abcdef`;
    expect((await fetch(key)).status).toBe(404);
    expect((await fetch(key, { method: 'PUT', body })).status).toBe(201);
    expect(Buffer.from(await (await fetch(key)).arrayBuffer())).toEqual(body);
    const propfind = await fetch(`${nginx.url}rocm/gfx1201/a/`, {
      method: 'PROPFIND',
      headers: { Depth: '0' },
    });
    expect(propfind.status).toBe(207);
    expect(existsSync(path.join(nginx.root, 'sccache/rocm/gfx1201/a/b/c/abcdef'))).toBe(true);
    const lines = (await readLines(nginx.logPath, 4)).map(
      (line) => JSON.parse(line) as Record<string, unknown>,
    );
    expect(lines.map((l) => [l.method, l.status])).toEqual([
      ['GET', 404],
      ['PUT', 201],
      ['GET', 200],
      ['PROPFIND', 207],
    ]);
    expect(lines[1]).toMatchObject({
      uri: '/sccache/rocm/gfx1201/a/b/c/abcdef',
      content_length: String(body.length),
    });
    expect(lines[2]).toMatchObject({ body_bytes_sent: body.length, completion: 'OK' });
  });
});

describe('startRegistry', () => {
  it('accepts a monolithic blob upload and a manifest, and logs JSON lines', async () => {
    const registry = await startRegistry();
    stops.push(registry.stop);
    expect((await fetch(`${registry.url}/v2/`)).status).toBe(200);
    const blob = Buffer.from(
      '{"architecture":"amd64","os":"linux","rootfs":{"type":"layers","diff_ids":[]}}',
    );
    const digest = `sha256:${createHash('sha256').update(blob).digest('hex')}`;
    const post = await fetch(`${registry.url}/v2/rocm/demo/blobs/uploads/`, { method: 'POST' });
    expect(post.status).toBe(202);
    const location = new URL(post.headers.get('location') ?? '', registry.url);
    location.searchParams.set('digest', digest);
    const put = await fetch(location, {
      method: 'PUT',
      body: blob,
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    expect(put.status).toBe(201);
    const manifest = JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest, size: blob.length },
      layers: [],
    });
    const putManifest = await fetch(`${registry.url}/v2/rocm/demo/manifests/gfx1201`, {
      method: 'PUT',
      body: manifest,
      headers: { 'Content-Type': 'application/vnd.oci.image.manifest.v1+json' },
    });
    expect(putManifest.status).toBe(201);
    const lines = await readLines(registry.logPath, 3);
    const json = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(json.some((l) => l['http.request.method'] === 'PUT' && l['http.response.status'] === 201)).toBe(
      true,
    );
  });
});

describe('startSshd', () => {
  it('lets root in with the throwaway key only', async () => {
    const sshd = await startSshd();
    stops.push(sshd.stop);
    const base = [
      '-o',
      'BatchMode=yes',
      '-o',
      'StrictHostKeyChecking=no',
      '-o',
      'UserKnownHostsFile=/dev/null',
      '-o',
      'LogLevel=ERROR',
      '-p',
      String(sshd.port),
    ];
    const { stdout } = await execFileAsync('ssh', [
      ...base,
      '-i',
      sshd.privateKeyPath,
      `${sshd.user}@${sshd.host}`,
      'echo',
      'ok-$((40+2))',
    ]);
    expect(stdout.trim()).toBe('ok-42');
    await expect(
      execFileAsync('ssh', [
        ...base,
        '-o',
        'IdentitiesOnly=yes',
        '-i',
        '/dev/null',
        `${sshd.user}@${sshd.host}`,
        'true',
      ]),
    ).rejects.toThrow();
  });
});

describe('start-up failure', () => {
  it('names the daemon and shows its output when it cannot start', async () => {
    const first = await startRegistry();
    stops.push(first.stop);
    const port = Number(new URL(first.url).port);
    await expect(startRegistry({ port })).rejects.toThrow(
      /docker-registry exited during start-up[\s\S]*address already in use/,
    );
  });
});
