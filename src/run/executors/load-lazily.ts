import type { RunBakePrint } from './run-bake-print.js';

// The executors a command may never need, loaded on first use: a saved bake print never loads execa, and `import`
// of a run dir never loads tar's runner. Other folders import this file directly (a load-path leaf in
// .dependency-cruiser.cjs): through index.ts, the CLI bundle would load all of executors/ with the command.

export const runBakePrintLazily: RunBakePrint = async (options) =>
  (await import('./run-bake-print.js')).runBakePrint(options);

export const runExtractTarballLazily = async (extract: { file: string; into: string }): Promise<void> =>
  (await import('./extract-tarball.js')).runExtractTarball(extract);
