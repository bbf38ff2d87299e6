// The ssh agent is handed down, not read from process.env: the connector the command layer builds with
// SSH_AUTH_SOCK (readSshAgent) authenticates with a key only a real ssh-agent (Debian's openssh-client) holds, and
// the same target is refused without it. Truth: Debian's sshd's own log names the key it accepted.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSshAgent } from '../../src/commands/flags/read-cli-env.js';
import type { SshTarget } from '../../src/config/schema.js';
import { createRemoteHostConnector } from '../../src/run/executors/remote-host.js';
import { RemoteCommandError } from '../../src/shared/errors.js';
import { createTempDir, startSshd, type RunningSshd, type TempDir } from '../helpers/daemons/index.js';

let sshd: RunningSshd;
let dir: TempDir;
let agent: ChildProcess;
let socket: string;
let refusedKey: string;

async function waitForSocket(file: string): Promise<void> {
  for (let tries = 0; tries < 100 && !existsSync(file); tries += 1)
    await new Promise((resolve) => setTimeout(resolve, 50));
  if (!existsSync(file)) throw new Error(`ssh-agent made no socket at ${file}`);
}

beforeAll(async () => {
  sshd = await startSshd();
  dir = createTempDir('ssh-agent');
  socket = path.join(dir.path, 'agent.sock');
  agent = spawn('ssh-agent', ['-D', '-a', socket], { stdio: 'ignore' });
  await waitForSocket(socket);
  // The agent holds the key sshd authorizes; the target's own identity_file is a key sshd does not know.
  execFileSync('ssh-add', ['-q', sshd.privateKeyPath], { env: { SSH_AUTH_SOCK: socket }, stdio: 'ignore' });
  refusedKey = path.join(dir.path, 'unknown_ed25519');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', refusedKey], { stdio: 'ignore' });
});

afterAll(async () => {
  agent.kill();
  await sshd.stop();
  dir.remove();
});

const target = (): SshTarget => ({
  host: sshd.host,
  port: sshd.port,
  user: sshd.user,
  identity_file: refusedKey,
  known_hosts: sshd.knownHostsPath,
});

/** SHA256:… of the key sshd authorizes, as its log prints it. */
const authorizedFingerprint = (): string =>
  execFileSync('ssh-keygen', ['-l', '-f', `${sshd.privateKeyPath}.pub`], { encoding: 'utf8' }).split(
    ' ',
  )[1] ?? '';

describe('the ssh agent handed down from the command layer', () => {
  it("connects with the agent's key when SSH_AUTH_SOCK names the agent", async () => {
    const connect = createRemoteHostConnector(readSshAgent({ SSH_AUTH_SOCK: socket }));
    const host = await connect(target(), { timeoutMs: 10_000 });
    try {
      expect((await host.run('echo connected')).stdout.toString().trim()).toBe('connected');
    } finally {
      host.close();
    }
    const log = readFileSync(sshd.logPath, 'utf8');
    expect(log).toContain('Accepted publickey for root');
    expect(log).toContain(authorizedFingerprint());
  });

  it('is refused without it: nothing reads the agent from process.env behind the caller', async () => {
    const saved = process.env.SSH_AUTH_SOCK;
    process.env.SSH_AUTH_SOCK = socket;
    try {
      const connect = createRemoteHostConnector(readSshAgent({}));
      const error: unknown = await connect(target(), { timeoutMs: 10_000 }).then(
        (host) => host.close(),
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(RemoteCommandError);
    } finally {
      if (saved === undefined) delete process.env.SSH_AUTH_SOCK;
      else process.env.SSH_AUTH_SOCK = saved;
    }
  });
});
