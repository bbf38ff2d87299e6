import type { RunBakePrint } from './run-bake-print.js';

// The executors a command may never need, loaded on first use: a saved bake print never loads execa, and `import`
// of a run dir never loads tar's runner. Other folders import these through index.ts; the dynamic import() stays
// here, inside the folder, so routing through index.ts does not make them eager.

export const runBakePrintLazily: RunBakePrint = async (options) =>
  (await import('./run-bake-print.js')).runBakePrint(options);

export const runExtractTarballLazily = async (extract: { file: string; into: string }): Promise<void> =>
  (await import('./extract-tarball.js')).runExtractTarball(extract);
