// The host-key check of every ssh connection rocm-perf makes (ssh2 has no known_hosts reader): the known_hosts
// file is read before connecting, ssh2's hostVerifier answers from it, and a refusal keeps its reason so the
// connection error says what was wrong and how to fix it.
import { appendFileSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { SshTarget } from '../config/index.js';
import {
  checkHostKey,
  formatFingerprint,
  formatKnownHostLine,
  listHostKeyAlgorithms,
  parseKnownHosts,
  parseKeyType,
  toKnownHostName,
} from './known-hosts.js';
import type { HostKeyAlgorithm } from './known-hosts.js';

export interface HostVerifier {
  /** For ssh2's ConnectConfig.hostVerifier. */
  verify: (key: Buffer) => boolean;
  /** For ssh2's ConnectConfig.algorithms.serverHostKey: the key types the file holds for this host, if any. */
  serverHostKey: HostKeyAlgorithm[] | undefined;
  /** Why the last key was refused, with the fix; undefined when none was. */
  refusal: () => string | undefined;
}

const expandHome = (file: string) => file.replace(/^~(?=\/|$)/, homedir());

async function readKnownHosts(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

export async function createHostVerifier(target: SshTarget): Promise<HostVerifier> {
  const mode = target.host_key_checking ?? 'strict';
  const file = expandHome(target.known_hosts ?? '~/.ssh/known_hosts');
  const name = toKnownHostName(target.host, target.port ?? 22);
  const entries = mode === 'off' ? [] : parseKnownHosts(await readKnownHosts(file));
  let refusal: string | undefined;
  const refuse = (why: string, fix: string) => {
    refusal = `${why}. Fix: ${fix}`;
    return false;
  };
  const verify = (key: Buffer): boolean => {
    if (mode === 'off') return true;
    const check = checkHostKey({ entries, name, key });
    const presented = `${parseKeyType(key)} ${formatFingerprint(key)}`;
    switch (check.status) {
      case 'known':
        return true;
      case 'revoked':
        return refuse(
          `host key ${presented} of ${name} is revoked in ${file}:${check.line}`,
          'the host must get a new key; do not connect to it with this one',
        );
      case 'changed':
        return refuse(
          `host key of ${name} CHANGED: it presented ${presented}, ${file}:${check.lines.join(',')} records another key of that type (someone may be impersonating the host, or it was reinstalled)`,
          `if the change is expected, remove the old key (ssh-keygen -R '${name}' -f ${file}) and connect again`,
        );
      case 'unknown':
        if (mode === 'accept-new') {
          mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
          appendFileSync(file, `${formatKnownHostLine(name, key)}\n`, { mode: 0o600 });
          return true;
        }
        return refuse(
          `host key of ${name} (${presented}) is not in ${file}`,
          `check the fingerprint on the host (ssh-keygen -lf /etc/ssh/ssh_host_${parseKeyType(key).replace(/^ssh-|-sha2-nistp\d+$/g, '')}_key.pub), then add it: ssh-keyscan -p ${target.port ?? 22} ${target.host} >> ${file}; or set host_key_checking: accept-new for this host in fleet.yaml`,
        );
    }
  };
  return {
    verify,
    serverHostKey: listHostKeyAlgorithms(entries, name),
    refusal: () => refusal,
  };
}
