// vitest globalSetup of both tiers: the report page's bundle (dist/page/report-page.js), which `report` copies
// beside every index.html and serve sends, built from src/ before any test runs. So `npm run test:unit` passes on a
// fresh clone with nothing built, no test reads a bundle older than the source, and nothing rebuilds it while tests
// read it (esbuild takes about a second). A bundle that cannot be built stops the run, naming it.
import path from 'node:path';
import { buildPageBundle, PAGE_BUNDLE, PAGE_ENTRY } from '../scripts/build-page.js';

export async function setup(): Promise<void> {
  try {
    await buildPageBundle();
  } catch (error) {
    const where = (file: string) => path.relative(process.cwd(), file);
    throw new Error(
      `the report page bundle ${where(PAGE_BUNDLE)} could not be built from ${where(PAGE_ENTRY)} ` +
        `(tests that write or serve a report need it); run \`npm run build\` to see the esbuild error`,
      { cause: error },
    );
  }
}
