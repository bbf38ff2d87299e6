// Host keys checked against known_hosts on real connections to Debian's sshd: strict (the default), accept-new
// and off; plain, hashed and missing entries; a changed key refused with a message that says what to do.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SshTarget } from '../../src/config/schema.js';
import { createRemoteHostConnector } from '../../src/run/executors/remote-host.js';
import { RemoteCommandError } from '../../src/shared/errors.js';
import { formatFingerprint } from '../../src/ssh/known-hosts.js';
import { createTempDir, startSshd, type RunningSshd, type TempDir } from '../helpers/daemons/index.js';

// No ssh agent: the test's sshd takes the key it was given (the CLI hands SSH_AUTH_SOCK down).
const connectRemoteHost = createRemoteHostConnector(undefined);

let sshd: RunningSshd;
let dir: TempDir;

beforeAll(async () => {
  sshd = await startSshd();
  dir = createTempDir('known-hosts');
});

afterAll(async () => {
  await sshd.stop();
  dir.remove();
});

const targetWith = (knownHosts: string, extra: Partial<SshTarget> = {}): SshTarget => ({
  host: sshd.host,
  port: sshd.port,
  user: sshd.user,
  identity_file: sshd.privateKeyPath,
  known_hosts: knownHosts,
  ...extra,
});

function writeKnownHosts(name: string, text: string): string {
  const file = path.join(dir.path, name);
  writeFileSync(file, text);
  return file;
}

async function runEcho(target: SshTarget): Promise<string> {
  const host = await connectRemoteHost(target, { timeoutMs: 10_000 });
  try {
    return (await host.run('echo connected')).stdout.toString().trim();
  } finally {
    host.close();
  }
}

async function connectError(target: SshTarget): Promise<RemoteCommandError> {
  const error: unknown = await runEcho(target).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(RemoteCommandError);
  return error as RemoteCommandError;
}

const hostKeyFingerprint = () =>
  formatFingerprint(Buffer.from(sshd.knownHostsLine.split(' ')[2] ?? '', 'base64'));

describe('ssh host keys against known_hosts', () => {
  it('strict: connects when known_hosts holds the host key', async () => {
    expect(await runEcho(targetWith(sshd.knownHostsPath))).toBe('connected');
  });

  it('strict: connects with a hashed entry (ssh-keygen -H)', async () => {
    const file = writeKnownHosts('hashed', `${sshd.knownHostsLine}\n`);
    execFileSync('ssh-keygen', ['-H', '-f', file], { stdio: 'ignore' });
    expect(readFileSync(file, 'utf8')).toMatch(/^\|1\|/);
    expect(await runEcho(targetWith(file))).toBe('connected');
  });

  it('strict (the default): refuses an unknown host, naming its key fingerprint and the fix', async () => {
    const file = path.join(dir.path, 'absent');
    const error = await connectError({ ...targetWith(file), host_key_checking: undefined });
    expect(error.message).toContain(`is not in ${file}`);
    expect(error.message).toContain(hostKeyFingerprint());
    expect(error.message).toContain('ssh-keyscan');
    expect(error.message).toContain('accept-new');
  });

  it('refuses a changed key, even under accept-new, and says which line holds the old one', async () => {
    const other = readFileSync(sshd.privateKeyPath.replace(/$/, '.pub'), 'utf8')
      .split(' ')
      .slice(0, 2)
      .join(' ');
    const [hostName] = sshd.knownHostsLine.split(' ');
    const file = writeKnownHosts('changed', `# fleet hosts\n${hostName} ${other}\n`);
    for (const mode of ['strict', 'accept-new'] as const) {
      const error = await connectError(targetWith(file, { host_key_checking: mode }));
      expect(error.message).toContain('CHANGED');
      expect(error.message).toContain(`${file}:2`);
      expect(error.message).toContain('ssh-keygen -R');
    }
  });

  it('accept-new: records an unknown host, which strict then accepts', async () => {
    const file = path.join(dir.path, 'accept-new', 'known_hosts');
    expect(await runEcho(targetWith(file, { host_key_checking: 'accept-new' }))).toBe('connected');
    expect(readFileSync(file, 'utf8')).toBe(`${sshd.knownHostsLine}\n`);
    expect(await runEcho(targetWith(file))).toBe('connected');
  });

  it('off: connects whatever known_hosts says', async () => {
    const file = writeKnownHosts(
      'wrong',
      `${sshd.knownHostsLine.split(' ')[0]} ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFW7mNbawPPLBtt57vgsHA6B1MK6exnGKY+Jo8U2lMr1\n`,
    );
    expect(await runEcho(targetWith(file, { host_key_checking: 'off' }))).toBe('connected');
  });
});
