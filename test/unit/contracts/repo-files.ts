import { expect } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';

// The real producer files, read as text: each test mutates a copy in memory.

export const repoRoot = path.resolve(import.meta.dirname, '../../..');

export function readRepoFile(relative: string): string {
  return readFileSync(path.join(repoRoot, relative), 'utf8');
}

/** `expect.stringMatching`, typed, for use inside expected objects. */
export function matching(pattern: RegExp): string {
  return expect.stringMatching(pattern) as string;
}
