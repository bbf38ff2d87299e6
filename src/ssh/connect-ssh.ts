// Every ssh connection rocm-perf makes (the harness's remote commands and log capture, `contracts --remote`,
// `publish --push`): key or agent authentication, and the host key checked against known_hosts first
// (create-host-verifier.ts). The only ssh2 Client constructor.
import { readFile } from 'node:fs/promises';
import { homedir, userInfo } from 'node:os';
import path from 'node:path';
import { Client, type ConnectConfig } from 'ssh2';
import type { SshTarget } from '../config/index.js';
import { RemoteCommandError } from '../shared/errors.js';
import { createHostVerifier } from './create-host-verifier.js';
import { errorMessage } from '../shared/error-message.js';

export interface ConnectSshOptions {
  timeoutMs: number;
  /** Added to a connection error's hint, e.g. which fleet.yaml key holds these settings. */
  hint?: string;
  /** The ssh agent's socket (SSH_AUTH_SOCK, read by the command layer and handed down); undefined: no agent. */
  agent: string | undefined;
}

/** `user@host[:port]` for messages. */
export function formatSshLabel(target: SshTarget): string {
  return `${target.user ?? userInfo().username}@${target.host}${target.port ? `:${target.port}` : ''}`;
}

/** identity_file when given (an error when unreadable), else the first of ~/.ssh/id_{ed25519,ecdsa,rsa} there is. */
async function readIdentity(target: SshTarget): Promise<Buffer | undefined> {
  const candidates = target.identity_file
    ? [target.identity_file.replace(/^~(?=\/)/, homedir())]
    : ['id_ed25519', 'id_ecdsa', 'id_rsa'].map((name) => path.join(homedir(), '.ssh', name));
  for (const file of candidates) {
    try {
      return await readFile(file);
    } catch (error) {
      if (target.identity_file)
        throw new RemoteCommandError({
          host: formatSshLabel(target),
          command: 'ssh',
          exitCode: undefined,
          stderrTail: `cannot read identity_file ${file}: ${errorMessage(error)}`,
        });
    }
  }
  return undefined;
}

/** A connected, authenticated client; the caller ends it. */
export async function connectSsh(target: SshTarget, options: ConnectSshOptions): Promise<Client> {
  const client = new Client();
  const privateKey = await readIdentity(target);
  const verifier = await createHostVerifier(target);
  const config: ConnectConfig = {
    host: target.host,
    port: target.port ?? 22,
    username: target.user ?? userInfo().username,
    readyTimeout: options.timeoutMs,
    hostVerifier: verifier.verify,
    ...(verifier.serverHostKey ? { algorithms: { serverHostKey: verifier.serverHostKey } } : {}),
    ...(privateKey ? { privateKey } : {}),
    ...(options.agent ? { agent: options.agent } : {}),
  };
  await new Promise<void>((resolve, reject) => {
    client.once('ready', () => resolve());
    client.once('error', (error) => {
      const refusal = verifier.refusal();
      reject(
        new RemoteCommandError(
          {
            host: formatSshLabel(target),
            command: 'ssh (connect)',
            exitCode: undefined,
            stderrTail: refusal ?? error.message,
          },
          { cause: error, ...(options.hint ? { hint: options.hint } : {}) },
        ),
      );
    });
    client.connect(config);
  });
  client.on('error', () => undefined);
  return client;
}
