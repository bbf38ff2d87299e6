// Every source path the docs name exists: a `src/…` file (`.ts`) or folder (ending in `/`) mentioned in README.md,
// TESTS.md or docs/ is looked up in the tree, so a file that moves without its docs fails here naming the doc and
// line (issue 40: docs/forecast.md pointed to src/run/progress.ts after it moved into run/harness/).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

function listDocs(): string[] {
  const docs = readdirSync(path.join(repoRoot, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join('docs', name));
  return ['README.md', 'TESTS.md', ...docs.sort()];
}

/** `src/…/x.ts` and `src/…/` mentioned in a text, with their line numbers. */
function findSourcePaths(text: string): { line: number; path: string }[] {
  return text.split('\n').flatMap((content, index) =>
    [...content.matchAll(/(?<![\w/.-])src\/[\w./-]*?(?:\.ts\b|\/(?![\w.-]))/g)].map((match) => ({
      line: index + 1,
      path: match[0],
    })),
  );
}

describe('source paths in the docs', () => {
  it('finds paths the way a reader reads them', () => {
    const text =
      'see `src/report/load-run-model.ts`, src/run/harness/ and\n(src/a/b.ts); not src/lib /src or xsrc/y.ts';
    expect(findSourcePaths(text)).toEqual([
      { line: 1, path: 'src/report/load-run-model.ts' },
      { line: 1, path: 'src/run/harness/' },
      { line: 2, path: 'src/a/b.ts' },
    ]);
  });

  it('names only paths that exist', () => {
    const missing = listDocs().flatMap((doc) =>
      findSourcePaths(readFileSync(path.join(repoRoot, doc), 'utf8'))
        .filter((mention) => !existsSync(path.join(repoRoot, mention.path)))
        .map((mention) => `${doc}:${mention.line}: ${mention.path}`),
    );
    expect(missing).toEqual([]);
  });
});
