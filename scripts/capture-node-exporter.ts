// Captures two scrapes of Debian's prometheus-node-exporter (its default collectors) into
// test/fixtures/node-exporter/, for the parser and rate tests. Run: node --import tsx scripts/capture-node-exporter.ts
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { fetchMetricsText } from '../src/collect/index.js';

const binary = '/usr/bin/prometheus-node-exporter';
const outDir = new URL('../test/fixtures/node-exporter/', import.meta.url);
const gapMs = 2000;

async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

async function scrapeWhenReady(url: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    try {
      return await fetchMetricsText(url, { signal: AbortSignal.timeout(5000) });
    } catch {
      await delay(100);
    }
  }
  throw new Error(`${url}: node_exporter did not answer within 5 s`);
}

async function main(): Promise<void> {
  const version = execFileSync(binary, ['--version'], { encoding: 'utf8' }).split('\n')[0] ?? '';
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}/metrics`;
  const child = spawn(binary, [`--web.listen-address=127.0.0.1:${port}`], { stdio: 'ignore' });
  try {
    const first = await scrapeWhenReady(url);
    const firstAtMs = Date.now();
    await delay(gapMs);
    const second = await scrapeWhenReady(url);
    const secondAtMs = Date.now();
    mkdirSync(outDir, { recursive: true });
    writeFileSync(new URL('debian-defaults-a.prom', outDir), first);
    writeFileSync(new URL('debian-defaults-b.prom', outDir), second);
    const meta = {
      version: 1,
      exporter: version,
      args: [`--web.listen-address=127.0.0.1:<port>`],
      scrapedAtMs: [firstAtMs, secondAtMs],
    };
    writeFileSync(new URL('debian-defaults.json', outDir), `${JSON.stringify(meta, null, 2)}\n`);
    console.log(`captured ${first.length} + ${second.length} bytes from ${version}`);
  } finally {
    child.kill('SIGTERM');
  }
}

await main();
