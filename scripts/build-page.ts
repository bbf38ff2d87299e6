import { build, type Plugin } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

// Bundles the report page's script for the browser: the chart option builder, the zod DataFileSchema and the parts
// of ECharts the chart uses (src/report/echarts-parts.ts; ECharts' production build, without its dev warnings).
// Run by `npm run build`, and by vitest's global setup (test/build-page-bundle.ts) before either tier runs.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const PAGE_ENTRY = path.join(repoRoot, 'src/report/page/report-page.ts');
export const PAGE_BUNDLE = path.join(repoRoot, 'dist/page/report-page.js');

// zod's classic API re-exports every locale (~260 kB); the page only needs English messages, which zod
// installs by default from locales/en.js. Replace the locales index with English alone.
export const englishOnlyZod: Plugin = {
  name: 'zod-english-only',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}zod${path.sep}`)
        ? { path: 'zod-locales', namespace: 'zod-locales' }
        : undefined,
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: 'zod-locales' }, () => ({
      contents: `export { default as en } from ${JSON.stringify(path.join(repoRoot, 'node_modules/zod/v4/locales/en.js'))};`,
      loader: 'js',
      resolveDir: repoRoot,
    }));
  },
};

export async function buildPageBundle(outfile = PAGE_BUNDLE): Promise<string> {
  await build({
    entryPoints: [PAGE_ENTRY],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2020'],
    minify: true,
    legalComments: 'none',
    outfile,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
    plugins: [englishOnlyZod],
  });
  return outfile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = await buildPageBundle();
  console.log(`page bundle: ${path.relative(repoRoot, out)}`);
}
