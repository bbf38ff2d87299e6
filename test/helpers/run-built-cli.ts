import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

// The built CLI (bin/rocm-perf.js) as users run it, for e2e tests: one subcommand in a runs root given as the
// working directory and PERF_ROOT. Never rejects: tests assert on exitCode, stdout and stderr.

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(repoRoot, 'bin/rocm-perf.js');

/** Fails with the fix when dist/ was not built (`npm run build`; `npm test` does it first). */
export async function assertCliBuilt(): Promise<void> {
  await stat(path.join(repoRoot, 'dist/cli.js')).catch(() => {
    throw new Error('dist/cli.js is missing: run `npm run build` first (npm test does)');
  });
}

export function runBuiltCli(args: readonly string[], { root }: { root: string }) {
  return execa(process.execPath, [bin, ...args], {
    reject: false,
    cwd: root,
    env: { NO_COLOR: '1', PERF_ROOT: root },
    extendEnv: true,
  });
}
