import { at, type SourceLocation } from './contract-result.js';
import type { SourceFile } from './check-artifact-schemas.js';
import { toLineNumber } from './find-line.js';
import { stripComments } from './parse-imports.js';

// Environment variables a program's code reads: `env.NAME`, `env['NAME']`, and commander's `.env('NAME')`.

const PATTERNS = [
  /\benv\.([A-Z][A-Z0-9_]*)\b/g,
  /\benv\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\]/g,
  /\.env\(\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\)/g,
];

// Pure: name → first place it is read.
export function findEnvReads(sources: readonly SourceFile[]): Map<string, SourceLocation> {
  const reads = new Map<string, SourceLocation>();
  for (const file of sources) {
    if (!file.text.includes('env')) continue;
    const code = stripComments(file.text);
    for (const pattern of PATTERNS) {
      for (const match of code.matchAll(pattern)) {
        const name = match[1];
        if (name !== undefined && !reads.has(name))
          reads.set(name, at(file.path, toLineNumber(code, match.index)));
      }
    }
  }
  return reads;
}
