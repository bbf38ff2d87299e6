// known_hosts reading against OpenSSH's own tools: keys and hashed host names made by ssh-keygen, fingerprints
// compared with `ssh-keygen -l`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkHostKey,
  formatFingerprint,
  formatKnownHostLine,
  listHostKeyAlgorithms,
  matchesHost,
  parseKnownHosts,
  toKnownHostName,
} from '../../../src/ssh/known-hosts.js';

const dir = mkdtempSync(path.join(tmpdir(), 'rocm-perf-known-hosts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A fresh key from ssh-keygen: its known_hosts fields and the key blob a server would send. */
function makeKey(
  type: 'ed25519' | 'ecdsa' | 'rsa',
  name: string,
): { fields: string; blob: Buffer; file: string } {
  const file = path.join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-t', type, '-N', '', '-C', name, '-f', file], { stdio: 'ignore' });
  const [keyType, base64] = readFileSync(`${file}.pub`, 'utf8').trim().split(' ');
  return { fields: `${keyType} ${base64}`, blob: Buffer.from(base64 ?? '', 'base64'), file: `${file}.pub` };
}

const forge = makeKey('ed25519', 'forge');
const forgeOld = makeKey('ed25519', 'forge-old');
const forgeEcdsa = makeKey('ecdsa', 'forge-ecdsa');
const kiln = makeKey('rsa', 'kiln');

describe('parseKnownHosts', () => {
  it('reads entries with their line numbers and markers; skips comments, blanks and malformed lines', () => {
    const entries = parseKnownHosts(
      [
        '# a comment',
        '',
        `forge.lan,10.0.0.5 ${forge.fields} root@forge`,
        'only-two fields',
        `@revoked * ${forgeOld.fields}`,
        `@cert-authority *.lan ${kiln.fields}`,
        `  [kiln.lan]:2222 ${kiln.fields}`,
      ].join('\n'),
    );
    expect(entries.map((entry) => [entry.line, entry.marker, entry.keyType])).toEqual([
      [3, undefined, 'ssh-ed25519'],
      [5, 'revoked', 'ssh-ed25519'],
      [6, 'cert-authority', 'ssh-rsa'],
      [7, undefined, 'ssh-rsa'],
    ]);
    expect(entries[0]?.key.equals(forge.blob)).toBe(true);
  });
});

describe('matchesHost', () => {
  const hostsOf = (field: string) => parseKnownHosts(`${field} ${forge.fields}`)[0]?.hosts;
  it.each([
    ['forge.lan', 'forge.lan', true],
    ['forge.lan', 'FORGE.lan', true],
    ['forge.lan', 'kiln.lan', false],
    ['forge.lan,10.0.0.5', '10.0.0.5', true],
    ['[10.0.0.5]:2222', toKnownHostName('10.0.0.5', 2222), true],
    ['10.0.0.5', toKnownHostName('10.0.0.5', 2222), false],
    ['*.lan', 'kiln.lan', true],
    ['10.0.0.?', '10.0.0.7', true],
    ['10.0.0.?', '10.0.0.17', false],
    ['!bad.lan,*.lan', 'bad.lan', false],
    ['!bad.lan,*.lan', 'good.lan', true],
  ])('%s names %s: %s', (field, name, expected) => {
    const hosts = hostsOf(field);
    expect(hosts).toBeDefined();
    if (hosts) expect(matchesHost(hosts, name)).toBe(expected);
  });

  it('matches host names hashed by ssh-keygen -H, and only those', () => {
    const file = path.join(dir, 'hashed_known_hosts');
    writeFileSync(file, `forge.lan ${forge.fields}\n[10.0.0.5]:2222 ${forge.fields}\n`);
    execFileSync('ssh-keygen', ['-H', '-f', file], { stdio: 'ignore' });
    const entries = parseKnownHosts(readFileSync(file, 'utf8'));
    expect(entries.map((entry) => entry.hosts.kind)).toEqual(['hashed', 'hashed']);
    const [first, second] = entries;
    if (!first || !second) throw new Error('ssh-keygen -H wrote fewer entries');
    expect(matchesHost(first.hosts, 'forge.lan')).toBe(true);
    expect(matchesHost(first.hosts, 'kiln.lan')).toBe(false);
    expect(matchesHost(second.hosts, toKnownHostName('10.0.0.5', 2222))).toBe(true);
    expect(matchesHost(second.hosts, '10.0.0.5')).toBe(false);
  });
});

describe('checkHostKey', () => {
  const entries = parseKnownHosts(
    [
      `forge.lan ${forge.fields}`,
      `kiln.lan ${forgeEcdsa.fields}`,
      `@revoked * ${forgeOld.fields}`,
      `old.lan ${forgeOld.fields}`,
    ].join('\n'),
  );
  it('known: the host has an entry with this key', () => {
    expect(checkHostKey({ entries, name: 'forge.lan', key: forge.blob })).toEqual({
      status: 'known',
      line: 1,
    });
  });
  it('changed: the host has another key of the same type', () => {
    const key = makeKey('ecdsa', 'impostor').blob;
    expect(checkHostKey({ entries, name: 'kiln.lan', key })).toEqual({ status: 'changed', lines: [2] });
  });
  it('unknown: no entry for the host, or only keys of other types', () => {
    expect(checkHostKey({ entries, name: 'anvil.lan', key: forge.blob })).toEqual({ status: 'unknown' });
    expect(checkHostKey({ entries, name: 'kiln.lan', key: forge.blob })).toEqual({ status: 'unknown' });
  });
  it('revoked wins over an entry that lists the key', () => {
    expect(checkHostKey({ entries, name: 'old.lan', key: forgeOld.blob })).toEqual({
      status: 'revoked',
      line: 3,
    });
  });
});

describe('fingerprints, algorithms and new lines', () => {
  it('prints the fingerprint ssh-keygen -l prints', () => {
    const printed = execFileSync('ssh-keygen', ['-l', '-f', forge.file], { encoding: 'utf8' }).split(' ')[1];
    expect(formatFingerprint(forge.blob)).toBe(printed);
  });

  it('offers the key types the file holds for the host (RSA as its SHA-2 signatures first)', () => {
    const entries = parseKnownHosts(
      `kiln.lan ${kiln.fields}\nkiln.lan ${forge.fields}\n* ${forgeEcdsa.fields}`,
    );
    expect(listHostKeyAlgorithms(entries, 'kiln.lan')).toEqual([
      'rsa-sha2-512',
      'rsa-sha2-256',
      'ssh-rsa',
      'ssh-ed25519',
      'ecdsa-sha2-nistp256',
    ]);
    expect(listHostKeyAlgorithms(parseKnownHosts(`kiln.lan ${kiln.fields}`), 'forge.lan')).toBeUndefined();
  });

  it('writes a line that reads back as the same key for the same host', () => {
    const line = formatKnownHostLine(toKnownHostName('10.0.0.5', 2222), forge.blob);
    const check = checkHostKey({ entries: parseKnownHosts(line), name: '[10.0.0.5]:2222', key: forge.blob });
    expect(check.status).toBe('known');
  });
});
