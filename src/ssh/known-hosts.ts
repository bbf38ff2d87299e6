// OpenSSH known_hosts files, read the way ssh reads them (sshd(8) "SSH_KNOWN_HOSTS FILE FORMAT"): one key per line,
// `[marker] hostpatterns keytype base64-key [comment]`. Host patterns are comma-separated, may use `*` and `?`, may be
// negated with `!`, name a non-default port as `[host]:port`, or be hashed (`|1|base64-salt|base64-hmac-sha1`, from
// `ssh-keygen -H` or HashKnownHosts). `@revoked` keys are refused; `@cert-authority` lines are skipped (certificates
// are not supported here). Pure: text in, answers out (node:crypto for the hashes and fingerprints).
import { createHash, createHmac } from 'node:crypto';
import { toGlobRegExp } from '../shared/glob.js';

export interface KnownHostEntry {
  /** 1-based line in the file. */
  line: number;
  marker: 'revoked' | 'cert-authority' | undefined;
  /** Comma-separated patterns, or a hashed host name. */
  hosts: { kind: 'patterns'; patterns: string[] } | { kind: 'hashed'; salt: Buffer; hash: Buffer };
  keyType: string;
  /** The key as the server sends it (the base64 field decoded). */
  key: Buffer;
}

/** The entries of a known_hosts file; lines ssh would ignore (comments, blanks, malformed) are left out. */
export function parseKnownHosts(text: string): KnownHostEntry[] {
  const entries: KnownHostEntry[] = [];
  text.split('\n').forEach((raw, index) => {
    const fields = raw.trim().split(/\s+/);
    if (fields[0] === undefined || fields[0] === '' || fields[0].startsWith('#')) return;
    const marker =
      fields[0] === '@revoked' ? 'revoked' : fields[0] === '@cert-authority' ? 'cert-authority' : undefined;
    const [hostField, keyType, keyBase64] = marker === undefined ? fields : fields.slice(1);
    if (hostField === undefined || keyType === undefined || keyBase64 === undefined) return;
    const hosts = parseHostField(hostField);
    if (hosts === undefined) return;
    entries.push({ line: index + 1, marker, hosts, keyType, key: Buffer.from(keyBase64, 'base64') });
  });
  return entries;
}

function parseHostField(field: string): KnownHostEntry['hosts'] | undefined {
  if (!field.startsWith('|1|')) return { kind: 'patterns', patterns: field.split(',') };
  const [salt, hash] = field.slice(3).split('|');
  if (salt === undefined || hash === undefined) return undefined;
  return { kind: 'hashed', salt: Buffer.from(salt, 'base64'), hash: Buffer.from(hash, 'base64') };
}

/** How ssh names a host in known_hosts: `host` on port 22, else `[host]:port`. */
export function toKnownHostName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

function matchesWildcard(pattern: string, name: string): boolean {
  return toGlobRegExp(pattern, { ignoreCase: true }).test(name);
}

/** Whether an entry's host field names `name` (`toKnownHostName`): a negated pattern that matches wins. @internal */
export function matchesHost(hosts: KnownHostEntry['hosts'], name: string): boolean {
  if (hosts.kind === 'hashed') return createHmac('sha1', hosts.salt).update(name).digest().equals(hosts.hash);
  let matched = false;
  for (const pattern of hosts.patterns) {
    const negated = pattern.startsWith('!');
    if (!matchesWildcard(negated ? pattern.slice(1) : pattern, name)) continue;
    if (negated) return false;
    matched = true;
  }
  return matched;
}

/** The key type a key blob names (its first SSH string, e.g. `ssh-ed25519`). */
export function parseKeyType(key: Buffer): string {
  if (key.length < 4) return 'unknown';
  const length = key.readUInt32BE(0);
  return length > 0 && 4 + length <= key.length ? key.toString('latin1', 4, 4 + length) : 'unknown';
}

/** `SHA256:<base64>`, as `ssh-keygen -l` prints a key's fingerprint. */
export function formatFingerprint(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

export type HostKeyCheck =
  | { status: 'known'; line: number }
  | { status: 'revoked'; line: number }
  | { status: 'changed'; lines: number[] }
  | { status: 'unknown' };

/**
 * What the file says of the key a host presented: `known` (an entry for the host holds this key), `revoked` (a
 * `@revoked` entry holds it), `changed` (the host has entries, none with this key: possibly an impostor) or `unknown`.
 */
export function checkHostKey(options: {
  entries: readonly KnownHostEntry[];
  name: string;
  key: Buffer;
}): HostKeyCheck {
  const { entries, name, key } = options;
  const revoked = entries.find((entry) => entry.marker === 'revoked' && entry.key.equals(key));
  if (revoked !== undefined) return { status: 'revoked', line: revoked.line };
  const forHost = entries.filter((entry) => entry.marker === undefined && matchesHost(entry.hosts, name));
  const known = forHost.find((entry) => entry.key.equals(key));
  if (known !== undefined) return { status: 'known', line: known.line };
  // Only a key of the same type proves a change: a host may hold keys of several types.
  const sameType = forHost.filter((entry) => entry.keyType === parseKeyType(key));
  return sameType.length > 0
    ? { status: 'changed', lines: sameType.map((entry) => entry.line) }
    : { status: 'unknown' };
}

/** The host key algorithms ssh2 offers (its ServerHostKeyAlgorithm, without DSA). */
export type HostKeyAlgorithm =
  | 'ssh-ed25519'
  | 'ecdsa-sha2-nistp256'
  | 'ecdsa-sha2-nistp384'
  | 'ecdsa-sha2-nistp521'
  | 'rsa-sha2-512'
  | 'rsa-sha2-256'
  | 'ssh-rsa';

const algorithmsByKeyType: Record<string, HostKeyAlgorithm[]> = {
  'ssh-ed25519': ['ssh-ed25519'],
  'ecdsa-sha2-nistp256': ['ecdsa-sha2-nistp256'],
  'ecdsa-sha2-nistp384': ['ecdsa-sha2-nistp384'],
  'ecdsa-sha2-nistp521': ['ecdsa-sha2-nistp521'],
  'ssh-rsa': ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'],
};

/**
 * The host key algorithms to offer a host the file knows, so it presents a key the file can check (as ssh orders
 * them); undefined when the file has no usable entry for the host (the client's defaults then apply).
 */
export function listHostKeyAlgorithms(
  entries: readonly KnownHostEntry[],
  name: string,
): HostKeyAlgorithm[] | undefined {
  const algorithms = entries
    .filter((entry) => entry.marker === undefined && matchesHost(entry.hosts, name))
    .flatMap((entry) => algorithmsByKeyType[entry.keyType] ?? []);
  return algorithms.length === 0 ? undefined : [...new Set(algorithms)];
}

/** A known_hosts line recording `key` for the host (what `accept-new` appends). */
export function formatKnownHostLine(name: string, key: Buffer): string {
  return `${name} ${parseKeyType(key)} ${key.toString('base64')}`;
}
