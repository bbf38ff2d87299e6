import { createRemoteHostConnector, quoteShell } from '../run/executors/index.js';
import type { SshFacts } from './read-fleet-facts.js';
import { errorMessage } from '../shared/error-message.js';

// Read-only: `cat` one file on a remote host over ssh (the run/ executor). Loaded only under --remote, so the
// command's usual path never loads ssh2.

export interface FetchRemoteFileOptions {
  host: SshFacts;
  path: string;
  timeoutMs?: number;
  /** The ssh agent's socket (SSH_AUTH_SOCK, handed down from the command layer); undefined: none. */
  sshAgent: string | undefined;
}

export interface FetchedRemoteFile {
  label: string;
  path: string;
  /** Undefined when the file could not be read; `error` says why. */
  text: string | undefined;
  error: string | undefined;
}

export async function fetchRemoteFile({
  host,
  path,
  timeoutMs = 15_000,
  sshAgent,
}: FetchRemoteFileOptions): Promise<FetchedRemoteFile> {
  const target = {
    host: host.host,
    user: host.user,
    port: host.port,
    identity_file: host.identityFile,
    known_hosts: host.knownHosts,
    host_key_checking: host.hostKeyChecking,
  };
  let label = `${host.user ?? ''}${host.user ? '@' : ''}${host.host}`;
  try {
    const remote = await createRemoteHostConnector(sshAgent)(target, { timeoutMs });
    label = remote.label;
    try {
      const result = await remote.run(`cat -- ${quoteShell(path)}`, { timeoutMs });
      if (result.exitCode === 0)
        return { label, path, text: result.stdout.toString('utf8'), error: undefined };
      return {
        label,
        path,
        text: undefined,
        error: `\`cat ${path}\` exited ${String(result.exitCode)}: ${result.stderr.trim()}`,
      };
    } finally {
      remote.close();
    }
  } catch (error) {
    return { label, path, text: undefined, error: errorMessage(error) };
  }
}
