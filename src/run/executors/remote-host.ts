import { readFile } from 'node:fs/promises';
import { homedir, userInfo } from 'node:os';
import path from 'node:path';
import { Client, type ConnectConfig } from 'ssh2';
import type { SshTarget } from '../../config/schema.js';
import { RemoteCommandError } from '../../shared/errors.js';

// The only ssh2 importer: connect to a host and run commands, binary-safe on stdout.

export interface RemoteResult {
  exitCode: number | null;
  stdout: Buffer;
  stderr: string;
}

export interface RemoteHost {
  label: string;
  run(command: string, options?: { timeoutMs?: number }): Promise<RemoteResult>;
  close(): void;
}

export type ConnectRemoteHost = (target: SshTarget, options?: { timeoutMs?: number }) => Promise<RemoteHost>;

/** `'it'\''s'`: a POSIX shell single-quoted word. */
export function quoteShell(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

async function readKey(target: SshTarget): Promise<Buffer | undefined> {
  const candidates = target.identity_file
    ? [target.identity_file.replace(/^~(?=\/)/, homedir())]
    : ['id_ed25519', 'id_ecdsa', 'id_rsa'].map((name) => path.join(homedir(), '.ssh', name));
  for (const file of candidates) {
    try {
      return await readFile(file);
    } catch (error) {
      if (target.identity_file)
        throw new RemoteCommandError({
          host: target.host,
          command: 'ssh',
          exitCode: undefined,
          stderrTail: `cannot read identity_file ${file}: ${(error as Error).message}`,
        });
    }
  }
  return undefined;
}

function label(target: SshTarget): string {
  return `${target.user ?? userInfo().username}@${target.host}${target.port ? `:${target.port}` : ''}`;
}

function execOnce(client: Client, host: string, command: string, timeoutMs: number): Promise<RemoteResult> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new RemoteCommandError({
            host,
            command,
            exitCode: undefined,
            stderrTail: `timed out after ${timeoutMs} ms`,
          }),
        ),
      timeoutMs,
    );
    client.exec(command, (error, channel) => {
      if (error) {
        clearTimeout(timer);
        reject(
          new RemoteCommandError(
            { host, command, exitCode: undefined, stderrTail: error.message },
            { cause: error },
          ),
        );
        return;
      }
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      channel.on('data', (chunk: Buffer) => out.push(chunk));
      channel.stderr.on('data', (chunk: Buffer) => err.push(chunk));
      channel.on('close', (code: number | null) => {
        clearTimeout(timer);
        resolve({
          exitCode: code ?? null,
          stdout: Buffer.concat(out),
          stderr: Buffer.concat(err).toString('utf8'),
        });
      });
    });
  });
}

// Host keys are not checked against known_hosts (ssh2 has no reader for it); see docs/harness.md.
export const connectRemoteHost: ConnectRemoteHost = async (target, { timeoutMs = 15_000 } = {}) => {
  const client = new Client();
  const privateKey = await readKey(target);
  const config: ConnectConfig = {
    host: target.host,
    port: target.port ?? 22,
    username: target.user ?? userInfo().username,
    readyTimeout: timeoutMs,
    ...(privateKey ? { privateKey } : {}),
    ...(process.env.SSH_AUTH_SOCK ? { agent: process.env.SSH_AUTH_SOCK } : {}),
  };
  const name = label(target);
  await new Promise<void>((resolve, reject) => {
    client.once('ready', () => resolve());
    client.once('error', (error) =>
      reject(
        new RemoteCommandError(
          { host: name, command: 'ssh (connect)', exitCode: undefined, stderrTail: error.message },
          { cause: error },
        ),
      ),
    );
    client.connect(config);
  });
  client.on('error', () => undefined);
  return {
    label: name,
    run: (command, { timeoutMs: commandTimeoutMs = 60_000 } = {}) =>
      execOnce(client, name, command, commandTimeoutMs),
    close: () => client.end(),
  };
};
