import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ArtifactError } from '../shared/errors.js';
import { PAGE_SCRIPT } from './render-html.js';

// The page's script, served or copied beside index.html so it works offline: the bundle built by `npm run build`
// (scripts/build-page.ts → dist/page/), which carries the parts of ECharts the chart uses.

export interface PageAssets {
  [PAGE_SCRIPT]: Buffer;
}

/** dist/page/report-page.js, found from src/report (dev, tests) or from the CLI bundle, flat in dist/ (installed). */
function pageBundleCandidates(): string[] {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.basename(here) === 'dist'
    ? [path.join(here, 'page', PAGE_SCRIPT)]
    : [path.resolve(here, '../../dist/page', PAGE_SCRIPT)];
}

async function findPageBundle(): Promise<string> {
  for (const candidate of pageBundleCandidates()) {
    if (
      await stat(candidate).then(
        (s) => s.isFile(),
        () => false,
      )
    )
      return candidate;
  }
  throw new ArtifactError(pageBundleCandidates()[0]!, 'the report page bundle is missing', {
    hint: 'run `npm run build` (it bundles src/report/page/report-page.ts with esbuild)',
  });
}

let cached: Promise<PageAssets> | undefined;

export function readPageAssets(): Promise<PageAssets> {
  cached ??= (async () => ({
    [PAGE_SCRIPT]: await readFile(await findPageBundle()),
  }))().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}
