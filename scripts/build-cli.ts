import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { englishOnlyZod } from './build-page.js';

// Bundles the CLI for Node (issue 36 item 10): src/cli.ts and the four programs it starts (serve's regeneration
// process, the sampler thread, report's chart and registry-log threads) into dist/, with the commands program.ts imports lazily split into chunks. Node then
// reads a handful of files instead of resolving and loading ~320 of ours and ~600 of ECharts, zod and commander one
// by one. Everything lands flat in dist/, so each module's `new URL('./x.js', import.meta.url)` and
// `'../package.json'` point where they did in the tsc layout (docs/startup.md). Source maps are written beside
// (linked, without sources): `--debug` turns them on (bin/rocm-perf.js), so a stack names src/*.ts lines.
// ssh2 (a native addon) and pino (its transports run files by path on worker threads) stay in node_modules, and so
// does undici: it is CommonJS, and a bundled copy behind `await import('undici')` (shared/request.ts) comes back as
// a namespace without its named exports (`request is not a function`); Node's own loader gives them.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLI_OUT_DIR = path.join(repoRoot, 'dist');

/** Bundled CommonJS (commander, yaml, …) calls require() for Node's own modules: give the ES module one. */
const REQUIRE_SHIM =
  "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);";

export async function buildCliBundle(outdir = CLI_OUT_DIR): Promise<string> {
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: {
      cli: path.join(repoRoot, 'src/cli.ts'),
      'regen-worker': path.join(repoRoot, 'src/serve/regen-worker.ts'),
      'sampler-thread-worker': path.join(repoRoot, 'src/run/sampling/sampler-thread-worker.ts'),
      'chart-thread-worker': path.join(repoRoot, 'src/report/chart-thread-worker.ts'),
      'registry-thread-worker': path.join(repoRoot, 'src/collect/log-reader/registry-thread-worker.ts'),
    },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: ['node20'],
    chunkNames: 'chunk-[hash]',
    external: ['ssh2', 'pino', 'undici'],
    banner: { js: REQUIRE_SHIM },
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'none',
    // Smaller to compile at start-up; names are kept, so profiles and stacks still name our functions.
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
    // zod's messages in English only, as the page bundle has them (zod installs English by default).
    plugins: [englishOnlyZod],
  });
  return path.join(outdir, 'cli.js');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = await buildCliBundle();
  console.log(`cli bundle: ${path.relative(repoRoot, out)}`);
}
