import type { UnsafeEntry } from '../shared/open-run-file.js';

// A tar archive (POSIX ustar, as Go's archive/tar writes a .dockerbuild) read in memory, nothing written to disk:
// its regular files by name, and every member rocm-perf will not take, with why (the reasons are open-run-file.ts's
// words, so `import` names a link in a .dockerbuild as it names one in a run dir). Pure.

export interface TarMembers {
  /** Regular files by their normalised name (`./` dropped). */
  files: Map<string, Buffer>;
  /** Members refused: links, special files, names that climb out or are absolute, oversized files. */
  unsafe: UnsafeEntry[];
  /** Why the archive itself is not a tar (a bad header checksum, a cut member); undefined when it reads whole. */
  damage: string | undefined;
}

const BLOCK = 512;

const TYPE_REASONS: Readonly<Record<string, string>> = {
  '1': 'a hard link (another name for a member; after unpacking both are one file)',
  '2': 'a symbolic link',
  '3': 'a character device',
  '4': 'a block device',
  '6': 'a FIFO (named pipe)',
  '7': 'a contiguous file (not a regular file)',
};

function readString(block: Buffer, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString('utf8');
}

function readOctal(block: Buffer, offset: number, length: number): number | undefined {
  const text = readString(block, offset, length).trim();
  return /^[0-7]+$/.test(text) ? parseInt(text, 8) : undefined;
}

/** The header checksum: every byte of the block, the checksum field counted as spaces. */
function hasValidChecksum(block: Buffer): boolean {
  const recorded = readOctal(block, 148, 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i += 1) sum += i >= 148 && i < 156 ? 32 : (block[i] ?? 0);
  return recorded === sum;
}

/** A member's name as a relative path of its own, or why it is not one. */
function toSafeName(raw: string): { name: string } | { reason: string } {
  if (raw.startsWith('/')) return { reason: 'an absolute path' };
  const parts = raw.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.includes('..')) return { reason: 'a path that climbs out of the archive (`..`)' };
  return { name: parts.join('/') };
}

/** PAX extended header records (`<len> key=value\n`): the path a following member takes, when one is given. */
function parsePaxPath(data: Buffer): string | undefined {
  const match = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString('utf8'));
  return match?.[1];
}

export function parseTarMembers(archive: Buffer, { maxMemberBytes }: { maxMemberBytes: number }): TarMembers {
  const files = new Map<string, Buffer>();
  const unsafe: UnsafeEntry[] = [];
  let offset = 0;
  let paxPath: string | undefined;
  while (offset + BLOCK <= archive.length) {
    const header = archive.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) return { files, unsafe, damage: undefined };
    if (!hasValidChecksum(header))
      return { files, unsafe, damage: `bad tar header checksum at byte ${offset}` };
    const size = readOctal(header, 124, 12) ?? 0;
    const type = String.fromCharCode(header[156] ?? 0);
    const prefix = readString(header, 345, 155);
    const raw = paxPath ?? (prefix === '' ? '' : `${prefix}/`) + readString(header, 0, 100);
    paxPath = undefined;
    const dataStart = offset + BLOCK;
    if (dataStart + size > archive.length)
      return { files, unsafe, damage: `${raw}: cut short (${size} bytes declared, the archive ends first)` };
    const data = archive.subarray(dataStart, dataStart + size);
    offset = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x') {
      paxPath = parsePaxPath(data);
      continue;
    }
    if (type === 'g') continue;
    const safe = toSafeName(raw);
    if ('reason' in safe) unsafe.push({ name: raw, reason: safe.reason });
    else if (type === '5') continue;
    else if (type !== '0' && type !== '\0')
      unsafe.push({
        name: safe.name,
        reason: TYPE_REASONS[type] ?? `a tar member of type ${JSON.stringify(type)}`,
      });
    else if (size > maxMemberBytes)
      unsafe.push({
        name: safe.name,
        reason: `${size} bytes, over the ${maxMemberBytes}-byte limit for one member`,
      });
    else if (files.has(safe.name))
      unsafe.push({ name: safe.name, reason: 'a second member of the same name' });
    else files.set(safe.name, Buffer.from(data));
  }
  return { files, unsafe, damage: offset === 0 ? 'not a tar archive (no header)' : undefined };
}
