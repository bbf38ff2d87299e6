// The remote listing of a log and its siblings (remote-log-files.ts prints it) → one record per file. A file is
// known by its first line, which carries a timestamp: rotation renames, copies and compresses a file, but its
// first line stays.

/** How many bytes of the first line the listing reads: a longer first line is compared on this prefix. */
export const FINGERPRINT_LIMIT_BYTES = 4096;

/** Name endings of compressed rotated files; remote-log-files.ts maps each to its `-dc` tool. */
const compressedExtensions = ['gz', 'xz', 'bz2', 'zst'] as const;
export type Compression = (typeof compressedExtensions)[number];

export interface RemoteFileRecord {
  /** Base name in the log's directory. */
  name: string;
  inode: number;
  /** Size on disk (compressed, for a compressed file). */
  sizeBytes: number;
  compression: Compression | undefined;
  /** The first line (latin1, without its newline) once complete; undefined while the file has no complete line. */
  fingerprint: string | undefined;
}

/** @internal */
export function toCompression(name: string): Compression | undefined {
  const extension = name.slice(name.lastIndexOf('.') + 1);
  return compressedExtensions.find((candidate) => candidate === extension);
}

/** The first bytes of a file → its fingerprint, or undefined when its first line is not complete yet. @internal */
export function toFingerprint(firstLine: Buffer): string | undefined {
  const newline = firstLine.indexOf(10);
  if (newline >= 0) return newline === 0 ? undefined : firstLine.toString('latin1', 0, newline);
  return firstLine.length >= FINGERPRINT_LIMIT_BYTES
    ? firstLine.toString('latin1', 0, FINGERPRINT_LIMIT_BYTES)
    : undefined;
}

/**
 * Parses `name\0inode size\0base64(first line)\0` records. Returns an error message (naming the record) instead of
 * records when the listing is not in that shape.
 */
export function parseFileRecords(stdout: Buffer): RemoteFileRecord[] | string {
  const fields = stdout.toString('utf8').split('\0');
  if (fields.at(-1) === '') fields.pop();
  if (fields.length % 3 !== 0)
    return `expected name, stat and first line per file, got ${fields.length} fields`;
  const records: RemoteFileRecord[] = [];
  for (let index = 0; index < fields.length; index += 3) {
    const [name = '', stat = '', firstLine = ''] = fields.slice(index, index + 3);
    const match = /^(\d+) (\d+)$/.exec(stat.trim());
    if (!name || !match)
      return `file ${records.length + 1} (${JSON.stringify(name)}): bad stat ${JSON.stringify(stat)}`;
    records.push({
      name,
      inode: Number(match[1]),
      sizeBytes: Number(match[2]),
      compression: toCompression(name),
      fingerprint: toFingerprint(Buffer.from(firstLine, 'base64')),
    });
  }
  return records;
}

/** A fingerprint for messages: the start of the line, quoted. */
export function formatFingerprint(fingerprint: string | undefined): string {
  if (fingerprint === undefined) return 'no complete first line';
  const text = Buffer.from(fingerprint, 'latin1').toString('utf8');
  return `first line ${JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text)}`;
}
