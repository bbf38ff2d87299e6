import type { Client } from 'ssh2';
import type { SshTarget } from '../../config/index.js';
import { RemoteCommandError } from '../../shared/errors.js';
import { connectSsh, formatSshLabel } from '../../ssh/index.js';

// Run commands on a host over ssh (connect-ssh.ts: authentication and the known_hosts check), binary-safe on stdout.

interface RemoteResult {
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

/** The connector for an ssh agent (SSH_AUTH_SOCK, handed down from the command layer; undefined: none). */
export const createRemoteHostConnector =
  (agent: string | undefined): ConnectRemoteHost =>
  async (target, { timeoutMs = 15_000 } = {}) => {
    const client = await connectSsh(target, { timeoutMs, agent });
    const name = formatSshLabel(target);
    return {
      label: name,
      run: (command, { timeoutMs: commandTimeoutMs = 60_000 } = {}) =>
        execOnce(client, name, command, commandTimeoutMs),
      close: () => client.end(),
    };
  };
