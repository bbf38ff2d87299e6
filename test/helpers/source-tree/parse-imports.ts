import path from 'node:path';

// Static import facts of a TypeScript source file, read as text (no compiler needed; runs in milliseconds).

export interface ImportFact {
  /** Repo-relative path of the imported source file (`.js` specifiers mapped back to `.ts`). */
  resolved: string;
  typeOnly: boolean;
  /** True for `export … from`: a re-export (used to follow index.ts barrels). */
  reExport: boolean;
  line: number;
}

const STATIC = /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]/gm;
const DYNAMIC = /import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Comments removed, string contents and line breaks kept, so offsets still map to lines. */
export function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|(^|[^:\\'"`])\/\/[^\n]*/g, (match, prefix: string | undefined) =>
    match.startsWith('/*')
      ? match.replace(/[^\n]/g, ' ')
      : `${prefix ?? ''}${' '.repeat(match.length - (prefix ?? '').length)}`,
  );
}

function resolveSpecifier(fromFile: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
  return joined.replace(/\.(m?js)$/, '.ts');
}

/** 1-based line of `offset`, counting from a known (offset, line) pair so a forward scan stays linear. */
function createLineCounter(text: string): (offset: number) => number {
  let lastOffset = 0;
  let lastLine = 1;
  return (offset) => {
    if (offset < lastOffset) [lastOffset, lastLine] = [0, 1];
    for (let i = lastOffset; i < offset; i += 1) if (text.charCodeAt(i) === 10) lastLine += 1;
    lastOffset = offset;
    return lastLine;
  };
}

// Pure: the relative imports (static, re-exports, dynamic) of one file at repo-relative path `file`.
export function parseImports(file: string, text: string): ImportFact[] {
  const code = stripComments(text);
  const lineAt = createLineCounter(code);
  const facts: ImportFact[] = [];
  for (const match of code.matchAll(STATIC)) {
    const resolved = resolveSpecifier(file, match[4] ?? '');
    if (resolved === undefined) continue;
    const bindings = match[3] ?? '';
    const typeOnly =
      match[2] !== undefined ||
      (/^\{[^}]*\}$/.test(bindings.trim()) &&
        bindings
          .replace(/[{}\s]/g, '')
          .split(',')
          .filter(Boolean)
          .every((name) => name.startsWith('type')));
    facts.push({ resolved, typeOnly, reExport: match[1] === 'export', line: lineAt(match.index) });
  }
  for (const match of code.matchAll(DYNAMIC)) {
    const resolved = resolveSpecifier(file, match[1] ?? '');
    if (resolved !== undefined)
      facts.push({ resolved, typeOnly: false, reExport: false, line: lineAt(match.index) });
  }
  return facts;
}
