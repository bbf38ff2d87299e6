import type { LogGeneration } from './detect-rotation.js';
import type { RemoteFileRecord } from './parse-file-records.js';

// Where a rotated generation went: among the log's siblings, the files with its first line (or, before it had a
// complete first line, its inode). Names are only a tie-break.

export interface FindRotatedFilesOptions {
  records: readonly RemoteFileRecord[];
  generation: Pick<LogGeneration, 'inode' | 'fingerprint'>;
  /** Base name of the log itself, which is never a rotated copy. */
  logName: string;
}

function isCandidate(record: RemoteFileRecord, generation: FindRotatedFilesOptions['generation']): boolean {
  if (generation.fingerprint !== undefined && record.fingerprint !== undefined)
    return record.fingerprint === generation.fingerprint;
  return record.inode === generation.inode && record.compression === undefined;
}

/**
 * Files that may hold the generation, best first: the same inode (renamed, not copied), then uncompressed (no
 * tool needed, and a compressed copy may still be being written), then the largest, then by name. The caller checks
 * each against the bytes it appended live before trusting it.
 */
export function findRotatedFiles({
  records,
  generation,
  logName,
}: FindRotatedFilesOptions): RemoteFileRecord[] {
  const rank = (record: RemoteFileRecord) => [
    record.inode === generation.inode ? 0 : 1,
    record.compression === undefined ? 0 : 1,
    -record.sizeBytes,
  ];
  return records
    .filter((record) => record.name !== logName && isCandidate(record, generation))
    .sort((a, b) => {
      const [x, y] = [rank(a), rank(b)];
      for (let index = 0; index < x.length; index++)
        if (x[index] !== y[index]) return (x[index] ?? 0) - (y[index] ?? 0);
      return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
    });
}

export interface FindUnplacedFilesOptions {
  records: readonly RemoteFileRecord[];
  /** First lines of the siblings at the start and of every generation followed. */
  knownFingerprints: ReadonlySet<string>;
  logName: string;
}

/**
 * Siblings whose first line is new since the start and belongs to no generation followed: a file rotated during
 * the run that no poll saw as the log (two rotations between two polls).
 */
export function findUnplacedFiles({
  records,
  knownFingerprints,
  logName,
}: FindUnplacedFilesOptions): RemoteFileRecord[] {
  return records.filter(
    (record) =>
      record.name !== logName &&
      record.fingerprint !== undefined &&
      !knownFingerprints.has(record.fingerprint),
  );
}
