import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// Reads a source tree as text, for tests that check how our own code is put together (nothing is imported or run).

export interface SourceFile {
  /** Repo-relative, e.g. `src/run/run-file.ts`. */
  path: string;
  text: string;
}

export interface ReadSourceTreeOptions {
  /** The repo root; returned paths are relative to it, with `/` separators. */
  rootDir: string;
  /** Folder inside rootDir, e.g. `src`. */
  dir: string;
  extensions: readonly string[];
  /** Repo-relative folder prefixes to leave out, e.g. `src/contracts/`. */
  exclude?: readonly string[];
}

export function readSourceTree({
  rootDir,
  dir,
  extensions,
  exclude = [],
}: ReadSourceTreeOptions): SourceFile[] {
  const start = path.join(rootDir, dir);
  if (!existsSync(start)) return [];
  const entries = readdirSync(start, { recursive: true, withFileTypes: true });
  const files: SourceFile[] = [];
  for (const entry of entries) {
    if (
      !entry.isFile() ||
      !extensions.some((ext) => entry.name.endsWith(ext)) ||
      entry.name.endsWith('.d.ts')
    )
      continue;
    const absolute = path.join(entry.parentPath, entry.name);
    const relative = path.relative(rootDir, absolute).split(path.sep).join('/');
    if (exclude.some((prefix) => relative.startsWith(prefix))) continue;
    files.push({ path: relative, text: readFileSync(absolute, 'utf8') });
  }
  return files.sort((a, b) => a.path.localeCompare(b.path));
}
