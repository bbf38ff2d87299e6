// OpenSSH's sshd in the foreground with a throwaway host key and client key; root logs in with the key only.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { findFreePort } from './free-port.js';
import { createPortProbe, startRestartableDaemon } from './process.js';
import { createTempDir } from './temp-dir.js';

export interface StartSshdOptions {
  netns?: string;
  host?: string;
  port?: number;
  /** Environment every session gets (sshd_config SetEnv), e.g. a skewed clock for the commands run over ssh. */
  sessionEnv?: Record<string, string>;
}

export interface RunningSshd {
  host: string;
  port: number;
  user: 'root';
  privateKeyPath: string;
  /** The host key line for a known_hosts file (`[host]:port ssh-ed25519 …`). */
  knownHostsLine: string;
  /** A known_hosts file holding just that line (for `known_hosts:` in an ssh target). */
  knownHostsPath: string;
  logPath: string;
  /** Takes sshd down (open connections too) for `downMs`, then starts it again with the same keys and config. */
  outage: (downMs: number) => Promise<void>;
  stop: () => Promise<void>;
}

function generateKey(keyPath: string): void {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'rocm-perf-test', '-f', keyPath], {
    stdio: 'ignore',
  });
}

function buildSshdConfig(options: {
  host: string;
  port: number;
  dir: string;
  sessionEnv?: Record<string, string>;
}): string {
  // SHLVL=1: bash (Debian builds it to source ~/.bashrc for commands sshd runs at shell level 1) skips the test
  // machine's own ~/.bashrc, which is not part of the simulated host (here root's runs `pyenv init`, about 1 s per
  // command, and hangs 60 s on a stale rehash lock).
  const env = Object.entries({ SHLVL: '1', ...options.sessionEnv });
  const t = (name: string) => path.join(options.dir, name);
  return [
    `Port ${options.port}`,
    `ListenAddress ${options.host}`,
    `HostKey ${t('host_ed25519')}`,
    `PidFile ${t('sshd.pid')}`,
    `AuthorizedKeysFile ${t('authorized_keys')}`,
    'PermitRootLogin prohibit-password',
    'PubkeyAuthentication yes',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'UsePAM no',
    'StrictModes no',
    'LogLevel VERBOSE',
    'Subsystem sftp internal-sftp',
    `SetEnv ${env.map(([key, value]) => (/\s/.test(value) ? `"${key}=${value}"` : `${key}=${value}`)).join(' ')}`,
    '',
  ].join('\n');
}

export async function startSshd(options: StartSshdOptions = {}): Promise<RunningSshd> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? (options.netns === undefined ? await findFreePort(host) : 22);
  const dir = createTempDir('sshd');
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 }); // privilege-separation dir Debian's unit normally makes
  generateKey(path.join(dir.path, 'host_ed25519'));
  const privateKeyPath = path.join(dir.path, 'client_ed25519');
  generateKey(privateKeyPath);
  writeFileSync(path.join(dir.path, 'authorized_keys'), readFileSync(`${privateKeyPath}.pub`));
  const configPath = path.join(dir.path, 'sshd_config');
  writeFileSync(configPath, buildSshdConfig({ host, port, dir: dir.path, sessionEnv: options.sessionEnv }));
  const logPath = path.join(dir.path, 'sshd.log');
  const daemon = await startRestartableDaemon({
    name: 'sshd',
    command: '/usr/sbin/sshd',
    args: ['-D', '-e', '-f', configPath],
    netns: options.netns,
    keepHostSys: true,
    logPath,
    isReady: createPortProbe({ netns: options.netns, port }),
  }).catch((error: unknown) => {
    dir.remove();
    throw error;
  });
  const hostKey = readFileSync(path.join(dir.path, 'host_ed25519.pub'), 'utf8')
    .trim()
    .split(' ')
    .slice(0, 2)
    .join(' ');
  const knownHostsLine = `${port === 22 ? host : `[${host}]:${port}`} ${hostKey}`;
  const knownHostsPath = path.join(dir.path, 'known_hosts');
  writeFileSync(knownHostsPath, `${knownHostsLine}\n`);
  return {
    host,
    port,
    user: 'root',
    privateKeyPath,
    knownHostsLine,
    knownHostsPath,
    logPath,
    outage: daemon.outage,
    stop: async () => {
      await daemon.stop();
      dir.remove();
    },
  };
}
