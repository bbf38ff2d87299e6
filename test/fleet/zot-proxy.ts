// A small HTTP proxy in front of docker-registry that writes one Zot session line per request, so the Zot log
// slicer sees the same traffic the registry served. Clients (the `docker` double) talk to this proxy.
import { createWriteStream } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { buildZotSessionLine, toZotPath } from './zot-session-line.js';

export interface StartZotProxyOptions {
  host: string;
  port: number;
  /** `http://127.0.0.1:PORT` of the real registry. */
  upstreamUrl: string;
  logPath: string;
}

export interface RunningZotProxy {
  url: string;
  logPath: string;
  stop: () => Promise<void>;
}

const nowMs = () => performance.timeOrigin + performance.now();

export async function startZotProxy(options: StartZotProxyOptions): Promise<RunningZotProxy> {
  const upstream = new URL(options.upstreamUrl);
  const log = createWriteStream(options.logPath, { flags: 'a' });
  let goroutine = 4200;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const startedMs = nowMs();
    const headers = { ...req.headersDistinct };
    let bodySizeBytes = 0;
    const writeLine = (statusCode: number) => {
      const line = buildZotSessionLine({
        timeMs: nowMs(),
        clientIp: req.socket.remoteAddress ?? '',
        clientPort: req.socket.remotePort ?? 0,
        method: req.method ?? 'GET',
        path: toZotPath(req.url ?? '/'),
        statusCode,
        latencyMs: nowMs() - startedMs,
        bodySizeBytes,
        headers,
        goroutine: goroutine++,
      });
      log.write(`${line}\n`);
    };
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
          bodySizeBytes += chunk.length;
        });
        upstreamRes.pipe(res);
        res.once('finish', () => writeLine(upstreamRes.statusCode ?? 0));
      },
    );
    upstreamReq.once('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      writeLine(502);
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
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => log.end(resolve));
    },
  };
}
