// `node --import tsx scripts/screenshot-report.ts RUN_DIR OUT_DIR [DIFF_HTML]`: PNGs of a run dir's index.html
// (opened from disk: its chart, and the whole page), timeline.svg and targets.svg in headless Chromium, and of a
// diff page's chart when one is named, to look at legibility (issue 18 item 3, issue 36 item 3). Also prints the
// page's first-contentful-paint and the chart's first render, in ms from navigation start.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';
import { CHROMIUM_ARGS } from '../test/helpers/chromium-args.js';

/** The SVG in an <img> sized to it: a full-page screenshot of an SVG document hangs in headless Chromium. */
async function shootSvg(context: BrowserContext, file: string, out: string): Promise<void> {
  const svgText = await readFile(file, 'utf8');
  const [width, height] = [/width="(\d+)"/, /height="(\d+)"/].map((re) =>
    Number(re.exec(svgText)?.[1] ?? 1000),
  );
  const svg = await context.newPage();
  await svg.setViewportSize({ width: width!, height: height! });
  await svg.setContent(
    `<body style="margin:0"><img src="data:image/svg+xml;base64,${Buffer.from(svgText).toString('base64')}"></body>`,
  );
  await svg.locator('img').screenshot({ path: out, timeout: 120_000 });
}

async function main(): Promise<void> {
  const [runDir, outDir, diffHtml] = process.argv.slice(2);
  if (!runDir || !outDir) throw new Error('usage: screenshot-report.ts RUN_DIR OUT_DIR [DIFF_HTML]');
  const profile = await mkdtemp(path.join(tmpdir(), 'rocm-perf-shot-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1400, height: 1000 },
  });
  try {
    const page = await context.newPage();
    await page.goto(pathToFileURL(path.join(runDir, 'index.html')).href);
    await page.waitForFunction(
      () => performance.getEntriesByName('rocm-perf:first-render').length > 0,
      undefined,
      {
        timeout: 120_000,
      },
    );
    const times = await page.evaluate(() => ({
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      chart: performance.getEntriesByName('rocm-perf:first-render')[0]?.startTime,
    }));
    console.log(
      `first-contentful-paint ${times.fcp?.toFixed(0)} ms, chart finished ${times.chart?.toFixed(0)} ms`,
    );
    await page.locator('#chart').screenshot({ path: path.join(outDir, 'index-chart.png'), timeout: 120_000 });
    await shootSvg(context, path.join(runDir, 'timeline.svg'), path.join(outDir, 'timeline.png'));
    await shootSvg(context, path.join(runDir, 'targets.svg'), path.join(outDir, 'targets.png'));
    const written = ['index-chart', 'timeline', 'targets'];
    if (diffHtml) {
      const diff = await context.newPage();
      await diff.goto(pathToFileURL(path.resolve(diffHtml)).href);
      await diff.waitForSelector('svg', { timeout: 120_000 });
      await diff.screenshot({ path: path.join(outDir, 'diff.png'), fullPage: true, timeout: 120_000 });
      await diff
        .locator('svg')
        .first()
        .screenshot({ path: path.join(outDir, 'diff-chart.png'), timeout: 120_000 });
      written.push('diff', 'diff-chart');
    }
    console.log(`wrote ${outDir}/{${written.join(',')}}.png`);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}

await main();
