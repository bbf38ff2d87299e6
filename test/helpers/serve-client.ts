import { Client } from 'undici';
import { startServer } from '../../src/serve/index.js';
import { type RunningServer, type ServeOptions } from '../../src/serve/create-server.js';

// `serve` started for a test on the options given (loopback, port 0), with an undici client on it and a `get`
// that reads the whole body. close() closes the client, then the server. It returns once serve's run index is
// loaded (what a viewer gets meanwhile, a 503 with the load's progress, is serve-history.test.ts's), unless told
// `awaitIndex: false`.

export interface ServedRoot {
  server: RunningServer;
  client: Client;
  get: (
    pathname: string,
    init?: { method?: string; headers?: Record<string, string> },
  ) => Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>;
  close: () => Promise<void>;
}

export async function startServedRoot(
  options: ServeOptions,
  { awaitIndex = true }: { awaitIndex?: boolean } = {},
): Promise<ServedRoot> {
  const server = await startServer(options);
  if (awaitIndex) await server.indexReady().catch(() => undefined);
  const client = new Client(server.url.replace(/\/$/, ''));
  return {
    server,
    client,
    async get(pathname, init = {}) {
      const response = await client.request({
        path: pathname,
        method: init.method ?? 'GET',
        headers: init.headers,
      });
      return { status: response.statusCode, headers: response.headers, body: await response.body.text() };
    },
    async close() {
      await client.close();
      await server.close();
    },
  };
}
