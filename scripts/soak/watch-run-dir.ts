import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import path from 'node:path';

// Watches a live run dir the way a reader polling it would (every pollMs): files a run appends to must never be
// seen shorter at their path, and a log slice replaced at finalize must be a rename (a new inode) whose content
// was complete when it appeared and begins with everything the appended copy held. The appended copy is kept
// open from first sight, so its last bytes can still be compared after the rename unlinked it.

/** Files the run appends to (and serve tails): never shorter at their path while the run is live. */
const isAppended = (name: string) => /\.(jsonl|log|txt)$/.test(name);
/** The cache-log slices: appended live, then replaced by the authoritative slice at finalize. */
const SLICES = ['zot.jsonl', 'sccache.log'];

interface Seen {
  ino: number;
  size: number;
  mtimeMs: number;
}

interface Replacement {
  name: string;
  atMs: number;
  oldIno: number;
  newIno: number;
  oldSize: number;
  /** The new inode's size when first seen at the path. */
  newFirstSize: number;
}

interface RunDirFindings {
  polls: number;
  /** Appended files seen shorter at their path than at the poll before (while live). */
  shrinks: { name: string; atMs: number; from: number; to: number; sameInode: boolean }[];
  replacements: Replacement[];
  /** JSON files caught unparsable (a reader would have seen a partial file). */
  partialJson: { name: string; atMs: number; size: number }[];
  /** Files whose inode changed other than the slices (rewritten by rename), by count. */
  renamedFiles: Record<string, number>;
  /** JSON files whose content changed in place (same inode). */
  rewrittenInPlace: Record<string, number>;
  maxSizes: Record<string, number>;
}

export interface RunDirWatch {
  findings: RunDirFindings;
  /** Stops polling; then checks each slice replacement against the appended copy it replaced. */
  stop: () => { problems: string[]; checked: string[] };
}

function sameBytes(oldFd: number, newPath: string, length: number): number | undefined {
  const newFd = openSync(newPath, 'r');
  const a = Buffer.alloc(8 << 20);
  const b = Buffer.alloc(8 << 20);
  try {
    for (let offset = 0; offset < length;) {
      const n = Math.min(a.length, length - offset);
      const ra = readSync(oldFd, a, 0, n, offset);
      const rb = readSync(newFd, b, 0, n, offset);
      if (ra !== n || rb !== n || a.compare(b, 0, n, 0, n) !== 0) return offset;
      offset += n;
    }
    return undefined;
  } finally {
    closeSync(newFd);
  }
}

export function watchRunDir(dir: string, pollMs = 100): RunDirWatch {
  const findings: RunDirFindings = {
    polls: 0,
    shrinks: [],
    replacements: [],
    partialJson: [],
    renamedFiles: {},
    rewrittenInPlace: {},
    maxSizes: {},
  };
  const seen = new Map<string, Seen>();
  const heldFds = new Map<string, { ino: number; fd: number }[]>();

  const observeJson = (name: string, file: string, now: Seen, atMs: number) => {
    try {
      JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      findings.partialJson.push({ name, atMs, size: now.size });
    }
  };

  const observe = (name: string, atMs: number) => {
    const file = path.join(dir, name);
    let info;
    try {
      info = statSync(file);
    } catch {
      return; // gone between readdir and stat
    }
    if (!info.isFile()) return;
    const now: Seen = { ino: info.ino, size: info.size, mtimeMs: info.mtimeMs };
    const before = seen.get(name);
    seen.set(name, now);
    findings.maxSizes[name] = Math.max(findings.maxSizes[name] ?? 0, now.size);
    if (SLICES.includes(name) && before?.ino !== now.ino) {
      const fd = openSync(file, 'r');
      const held = heldFds.get(name) ?? [];
      held.push({ ino: fstatSync(fd).ino, fd });
      heldFds.set(name, held);
    }
    if (!before) {
      if (name.endsWith('.json')) observeJson(name, file, now, atMs);
      return;
    }
    if (isAppended(name) && now.size < before.size)
      findings.shrinks.push({
        name,
        atMs,
        from: before.size,
        to: now.size,
        sameInode: now.ino === before.ino,
      });
    if (before.ino !== now.ino) {
      if (SLICES.includes(name)) {
        const old = heldFds.get(name)?.find((h) => h.ino === before.ino);
        const oldSize = old ? fstatSync(old.fd).size : before.size;
        findings.replacements.push({
          name,
          atMs,
          oldIno: before.ino,
          newIno: now.ino,
          oldSize,
          newFirstSize: now.size,
        });
      } else findings.renamedFiles[name] = (findings.renamedFiles[name] ?? 0) + 1;
    } else if (name.endsWith('.json') && (before.size !== now.size || before.mtimeMs !== now.mtimeMs))
      findings.rewrittenInPlace[name] = (findings.rewrittenInPlace[name] ?? 0) + 1;
    if (
      name.endsWith('.json') &&
      (before.ino !== now.ino || before.size !== now.size || before.mtimeMs !== now.mtimeMs)
    )
      observeJson(name, file, now, atMs);
  };

  const timer = setInterval(() => {
    findings.polls += 1;
    const atMs = Date.now();
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) if (!name.startsWith('.') && !name.endsWith('.tmp')) observe(name, atMs);
  }, pollMs);

  return {
    findings,
    stop: () => {
      clearInterval(timer);
      const problems: string[] = [];
      const checked: string[] = [];
      for (const r of findings.replacements) {
        const file = path.join(dir, r.name);
        const finalInfo = statSync(file);
        const old = heldFds.get(r.name)?.find((h) => h.ino === r.oldIno);
        if (finalInfo.ino !== r.newIno) problems.push(`${r.name}: replaced again after finalize's rename`);
        if (r.newFirstSize !== finalInfo.size)
          problems.push(
            `${r.name}: the new file was ${r.newFirstSize} B when it appeared and ${finalInfo.size} B at the end (not complete at the rename)`,
          );
        if (r.newFirstSize < r.oldSize)
          problems.push(
            `${r.name}: the authoritative slice (${r.newFirstSize} B) is shorter than the appended copy it replaced (${r.oldSize} B)`,
          );
        const differsAt = old ? sameBytes(old.fd, file, Math.min(r.oldSize, finalInfo.size)) : 0;
        if (differsAt !== undefined)
          problems.push(`${r.name}: the slice differs from the appended copy at byte ${differsAt}`);
        else
          checked.push(
            `${r.name}: inode ${r.oldIno} → ${r.newIno}; appended copy ${r.oldSize} B is the first ${r.oldSize} B of the ${finalInfo.size} B slice, complete when it appeared`,
          );
      }
      for (const held of heldFds.values()) for (const h of held) closeSync(h.fd);
      return { problems, checked };
    },
  };
}
