import { request } from 'node:http';
import type { Client, ClientChannel } from 'ssh2';
import type { SshTarget } from '../../config/index.js';
import { connectSsh, formatSshLabel } from '../../ssh/index.js';
import { errorMessage } from '../../shared/error-message.js';

// One HTTP GET to an address as a node sees it (e.g. buildkitd's --debugaddr 127.0.0.1:6060), carried over the
// node's ssh link: a direct-tcpip channel (ssh2 forwardOut, what `ssh -L` does) on a connection made by
// connectSsh (key or agent, known_hosts checked), never a socket of this machine's own to the node. The body is
// bounded: past `maxBytes` the transfer is cut and the answer is `too-large`. Expected failures are values.

/** @internal */
export interface FetchOverSshOptions {
  ssh: SshTarget;
  /** The address as the node sees it. */
  host: string;
  port: number;
  path: string;
  headers?: Readonly<Record<string, string>>;
  maxBytes: number;
  /** For the connection, and again for the whole answer. */
  timeoutMs: number;
}

export type FetchOverSshResult =
  | { ok: true; status: number; body: Buffer }
  | {
      ok: false;
      /** ssh: the node's link; forward: the node refused the channel (nothing listens there); http: a bad answer. */
      stage: 'ssh' | 'forward' | 'http' | 'too-large';
      reason: string;
    };

export type FetchOverSsh = (options: FetchOverSshOptions) => Promise<FetchOverSshResult>;

function openChannel(client: Client, host: string, port: number): Promise<ClientChannel> {
  return new Promise((resolve, reject) => {
    client.forwardOut('127.0.0.1', 0, host, port, (error, channel) =>
      error ? reject(error) : resolve(channel),
    );
  });
}

function readAnswer(channel: ClientChannel, options: FetchOverSshOptions): Promise<FetchOverSshResult> {
  return new Promise((resolve) => {
    const where = `http://${options.host}:${options.port}${options.path}`;
    const finish = (result: FetchOverSshResult) => {
      clearTimeout(timer);
      resolve(result);
    };
    const timer = setTimeout(() => {
      req.destroy();
      finish({ ok: false, stage: 'http', reason: `${where}: no full answer in ${options.timeoutMs} ms` });
    }, options.timeoutMs);
    const req = request(
      {
        method: 'GET',
        host: options.host,
        port: options.port,
        path: options.path,
        headers: { ...options.headers, connection: 'close' },
        createConnection: () => channel,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const declared = Number(response.headers['content-length']);
        const tooLarge = (bytes: number) =>
          finish({
            ok: false,
            stage: 'too-large',
            reason: `${where}: the answer is ${bytes > options.maxBytes ? `over ${options.maxBytes}` : bytes} bytes, over the cap of ${options.maxBytes}`,
          });
        if (Number.isFinite(declared) && declared > options.maxBytes) {
          response.destroy();
          tooLarge(declared);
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            response.destroy();
            tooLarge(size);
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => finish({ ok: true, status, body: Buffer.concat(chunks) }));
        response.on('error', (error) =>
          finish({ ok: false, stage: 'http', reason: `${where}: ${errorMessage(error)}` }),
        );
      },
    );
    req.on('error', (error) =>
      finish({ ok: false, stage: 'http', reason: `${where}: ${errorMessage(error)}` }),
    );
    req.end();
  });
}

async function fetchWithAgent(
  options: FetchOverSshOptions,
  agent: string | undefined,
): Promise<FetchOverSshResult> {
  let client: Client;
  try {
    client = await connectSsh(options.ssh, { timeoutMs: options.timeoutMs, agent });
  } catch (error) {
    return { ok: false, stage: 'ssh', reason: errorMessage(error) };
  }
  try {
    let channel: ClientChannel;
    try {
      channel = await openChannel(client, options.host, options.port);
    } catch (error) {
      return {
        ok: false,
        stage: 'forward',
        reason: `${formatSshLabel(options.ssh)} could not reach ${options.host}:${options.port}: ${errorMessage(error)}`,
      };
    }
    return await readAnswer(channel, options);
  } finally {
    client.end();
  }
}

/** The fetcher for an ssh agent (SSH_AUTH_SOCK, handed down from the command layer; undefined: none). */
export const createFetchOverSsh =
  (agent: string | undefined): FetchOverSsh =>
  (options) =>
    fetchWithAgent(options, agent);
