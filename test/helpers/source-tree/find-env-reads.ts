import { stripComments } from './parse-imports.js';
import type { SourceFile } from './read-source-tree.js';

// Environment variables a program's code reads: `env.NAME`, `env['NAME']`, and commander's `.env('NAME')`.

const PATTERNS = [
  /\benv\.([A-Z][A-Z0-9_]*)\b/g,
  /\benv\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\]/g,
  /\.env\(\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\)/g,
];

// Pure: name → every file that reads it.
export function findEnvReads(sources: readonly SourceFile[]): Map<string, Set<string>> {
  const reads = new Map<string, Set<string>>();
  for (const file of sources) {
    if (!file.text.includes('env')) continue;
    const code = stripComments(file.text);
    for (const pattern of PATTERNS) {
      for (const match of code.matchAll(pattern)) {
        const name = match[1] ?? '';
        reads.set(name, (reads.get(name) ?? new Set()).add(file.path));
      }
    }
  }
  return reads;
}
