// The in-memory tar reader `import` reads a .dockerbuild with, held to archives GNU tar (an independent writer)
// makes here: every member kind it must refuse, and the regular files it must return byte for byte.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, linkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTarMembers } from '../../../src/import/parse-tar-members.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'tar-members-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Files under a fresh folder, packed by GNU tar with `args` (ustar unless told), returned as the tar's bytes. */
function pack(name: string, make: (at: string) => void, args: string[] = ['.']): Buffer {
  const at = path.join(dir, name);
  mkdirSync(at);
  make(at);
  const file = path.join(dir, `${name}.tar`);
  execFileSync('tar', ['--format=ustar', '-cf', file, '-C', at, ...args]);
  return readFileSync(file);
}

const limits = { maxMemberBytes: 1000 };

describe('parseTarMembers', () => {
  it('returns regular files by name, byte for byte, and takes directories silently', () => {
    const tar = pack('plain', (at) => {
      mkdirSync(path.join(at, 'blobs/sha256'), { recursive: true });
      writeFileSync(path.join(at, 'index.json'), '{"a":1}');
      writeFileSync(path.join(at, 'blobs/sha256/ab'), Buffer.from([0, 1, 2, 255]));
      writeFileSync(path.join(at, 'empty'), '');
    });
    const members = parseTarMembers(tar, limits);
    expect(members.unsafe).toEqual([]);
    expect(members.damage).toBeUndefined();
    expect([...members.files.keys()].sort()).toEqual(['blobs/sha256/ab', 'empty', 'index.json']);
    expect(members.files.get('index.json')?.toString()).toBe('{"a":1}');
    expect([...(members.files.get('blobs/sha256/ab') ?? [])]).toEqual([0, 1, 2, 255]);
    expect(members.files.get('empty')?.length).toBe(0);
  });

  it('refuses links, FIFOs and oversized members, each named', () => {
    const tar = pack('unsafe', (at) => {
      writeFileSync(path.join(at, 'a'), 'x');
      symlinkSync('/etc/passwd', path.join(at, 'link'));
      linkSync(path.join(at, 'a'), path.join(at, 'hard'));
      execFileSync('mkfifo', [path.join(at, 'fifo')]);
      writeFileSync(path.join(at, 'big'), Buffer.alloc(1001));
    });
    const { unsafe, files } = parseTarMembers(tar, limits);
    expect(Object.fromEntries(unsafe.map((entry) => [entry.name, entry.reason]))).toEqual({
      big: '1001 bytes, over the 1000-byte limit for one member',
      fifo: 'a FIFO (named pipe)',
      // GNU tar stores the second name of a file as the hard link, whichever it meets second.
      ...(unsafe.some((entry) => entry.name === 'hard')
        ? { hard: 'a hard link (another name for a member; after unpacking both are one file)' }
        : { a: 'a hard link (another name for a member; after unpacking both are one file)' }),
      link: 'a symbolic link',
    });
    expect(files.has('link')).toBe(false);
  });

  it('refuses names that climb out or are absolute', () => {
    const tar = pack(
      'climb',
      (at) => {
        mkdirSync(path.join(at, 'in'));
        writeFileSync(path.join(at, 'out'), 'x');
      },
      ['--transform', 's,^\\./out$,../../escape,', '-P', '.', path.join(dir, 'climb', 'out')],
    );
    const { unsafe } = parseTarMembers(tar, limits);
    expect(unsafe).toContainEqual({
      name: '../../escape',
      reason: 'a path that climbs out of the archive (`..`)',
    });
    expect(unsafe.some((entry) => entry.name.startsWith('/') && entry.reason === 'an absolute path')).toBe(
      true,
    );
  });

  it('says a damaged header or a cut member is damage, not files', () => {
    const tar = pack('cut', (at) => writeFileSync(path.join(at, 'f'), 'y'.repeat(700)));
    const flipped = Buffer.from(tar);
    flipped[10] = (flipped[10] ?? 0) ^ 1;
    expect(parseTarMembers(flipped, limits).damage).toMatch(/^bad tar header checksum at byte 0$/);
    const cut = tar.subarray(0, 512 * 3 + 100);
    const members = parseTarMembers(cut, limits);
    expect(members.damage).toMatch(/cut short/);
    expect(parseTarMembers(Buffer.from('not a tar at all'), limits).damage).toBe(
      'not a tar archive (no header)',
    );
  });
});
