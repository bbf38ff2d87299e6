// A small HTTP proxy in front of docker-registry that writes one Zot session line per request, so the Zot log
// slicer sees the same traffic the registry served. Clients (the `docker` double) talk to this proxy. It also
// keeps its own record of each request (registry-truth.ts) and can fail one in every N layer uploads with a 500
// after taking the whole body, as a registry with a flaky backend does; BuildKit retries those.
import { createWriteStream } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { RegistryTruthLine } from './registry-truth.js';
import { nowWallMs } from './wall-clock.js';
import { buildZotSessionLine, toZotPath } from './zot-session-line.js';

export interface StartZotProxyOptions {
  host: string;
  port: number;
  /** `http://127.0.0.1:PORT` of the real registry. */
  upstreamUrl: string;
  logPath: string;
  /** Where the proxy's own request record goes (JSON lines). */
  truthPath: string;
  /** Answer every Nth layer-sized blob PUT with a 500 (after reading its body); absent: never. */
  failLayerPutEvery?: number | undefined;
}

export interface RunningZotProxy {
  url: string;
  logPath: string;
  truthPath: string;
  stop: () => Promise<void>;
}

const nowMs = nowWallMs;
/** Smaller blob PUTs (image and cache configs) are never failed: BuildKit writes the cache config unretried. */
const layerMinBytes = 64 * 1024;

const isLayerPut = (req: IncomingMessage) =>
  req.method === 'PUT' &&
  (req.url ?? '').includes('/blobs/uploads/') &&
  (req.url ?? '').includes('digest=') &&
  Number(req.headers['content-length'] ?? 0) >= layerMinBytes;

const injectedBody = JSON.stringify({
  errors: [{ code: 'UNKNOWN', message: 'injected failure (fleet in a box: flaky storage backend)' }],
});

export async function startZotProxy(options: StartZotProxyOptions): Promise<RunningZotProxy> {
  const upstream = new URL(options.upstreamUrl);
  const log = createWriteStream(options.logPath, { flags: 'a' });
  const truth = createWriteStream(options.truthPath, { flags: 'a' });
  let goroutine = 4200;
  let layerPuts = 0;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const firstByteMs = nowMs();
    const headers = { ...req.headersDistinct };
    let requestBytes = 0;
    let responseBytes = 0;
    let written = false;
    req.on('data', (chunk: Buffer) => {
      requestBytes += chunk.length;
    });
    const record = (statusCode: number, injected: boolean) => {
      if (written) return;
      written = true;
      const endMs = nowMs();
      log.write(
        `${buildZotSessionLine({
          timeMs: endMs,
          clientIp: req.socket.remoteAddress ?? '',
          clientPort: req.socket.remotePort ?? 0,
          method: req.method ?? 'GET',
          path: toZotPath(req.url ?? '/'),
          statusCode,
          latencyMs: endMs - firstByteMs,
          bodySizeBytes: responseBytes,
          headers,
          goroutine: goroutine++,
        })}\n`,
      );
      const line: RegistryTruthLine = {
        version: 1,
        clientIp: req.socket.remoteAddress ?? '',
        clientPort: req.socket.remotePort ?? 0,
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        status: statusCode,
        firstByteMs,
        endMs,
        requestBytes,
        responseBytes,
        injected,
      };
      truth.write(`${JSON.stringify(line)}\n`);
    };
    if (
      options.failLayerPutEvery !== undefined &&
      isLayerPut(req) &&
      ++layerPuts % options.failLayerPutEvery === 0
    ) {
      req.once('end', () => {
        responseBytes = Buffer.byteLength(injectedBody);
        res.writeHead(500, { 'content-type': 'application/json', 'content-length': responseBytes });
        res.end(injectedBody);
      });
      res.once('finish', () => record(500, true));
      res.once('close', () => record(500, true));
      req.resume();
      return;
    }
    const upstreamReq = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (upstreamRes) => {
        res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
        upstreamRes.on('data', (chunk: Buffer) => {
          responseBytes += chunk.length;
        });
        upstreamRes.pipe(res);
        res.once('finish', () => record(upstreamRes.statusCode ?? 0, false));
        res.once('close', () => record(upstreamRes.statusCode ?? 0, false));
      },
    );
    upstreamReq.once('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      record(502, false);
    });
    req.pipe(upstreamReq);
  };
  const server = createServer(handle);
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  return {
    url: `http://${options.host}:${options.port}`,
    logPath: options.logPath,
    truthPath: options.truthPath,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => log.end(resolve));
      await new Promise<void>((resolve) => truth.end(resolve));
    },
  };
}
