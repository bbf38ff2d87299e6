// `node --import tsx scripts/show-forecast-views.ts RUN_DIR [OUT_DIR]`: what a user sees of a run's forecast.
// 1. The TTY live view at 25, 50 and 75 % of the run: the run's own queue events (run.json) replayed through the
//    harness's progress view (src/run/progress.ts) with a clock at that moment, the frame a terminal would show.
// 2. A screenshot of the run's page (`rocm-perf serve`, headless Debian chromium) into OUT_DIR/forecast-page.png.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { chromium } from 'playwright-core';
import { PlanFileSchema, RunFileSchema } from '../src/artifacts/index.js';
import {
  applyQueueEvent,
  createProgressState,
  renderLiveForecast,
  renderProgressView,
  replayLive,
} from '../src/run/harness/progress/progress.js';
import { CHROMIUM_ARGS } from '../test/helpers/chromium-args.js';
import { readFileSync } from 'node:fs';

const [runDir = 'fixtures/runs/gfx1201-cold', outDir = '.'] = process.argv.slice(2);
const plan = PlanFileSchema.parse(JSON.parse(readFileSync(path.join(runDir, 'plan.json'), 'utf8')));
const run = RunFileSchema.parse(JSON.parse(readFileSync(path.join(runDir, 'run.json'), 'utf8')));
const outcomes = Object.entries(run.targets).flatMap(([target, o]) =>
  'finishedAtMs' in o
    ? [{ target, node: o.node, startedAtMs: o.startedAtMs, finishedAtMs: o.finishedAtMs }]
    : [],
);
const origin = Math.min(...outcomes.map((o) => o.startedAtMs));
const end = Math.max(...outcomes.map((o) => o.finishedAtMs));

for (const share of [0.25, 0.5, 0.75]) {
  const nowMs = origin + share * (end - origin);
  const state = createProgressState(plan);
  state.phase = `measured run: ${run.harness} into ${run.namespace}`;
  const events = outcomes.flatMap((o) => [
    {
      atMs: o.startedAtMs,
      event: { type: 'started' as const, target: o.target, node: o.node, atMs: o.startedAtMs },
    },
    {
      atMs: o.finishedAtMs,
      event: {
        type: 'settled' as const,
        target: o.target,
        outcome: {
          status: 'ok' as const,
          node: o.node,
          startedAtMs: o.startedAtMs,
          finishedAtMs: o.finishedAtMs,
        },
      },
    },
  ]);
  for (const { event } of events.filter((e) => e.atMs <= nowMs).sort((a, b) => a.atMs - b.atMs))
    applyQueueEvent(state, event);
  const forecastLine = renderLiveForecast(plan, state, nowMs);
  // The ETAs: the same replay's p50s, as the harness's live view draws them.
  const { estimate } = replayLive(plan, state, nowMs);
  console.log(
    `--- TTY live view at ${Math.round(share * 100)} % of the run (${((nowMs - origin) / 1000).toFixed(1)} s in)`,
  );
  console.log(renderProgressView({ plan, state, nowMs, forecastLine, estimate }).join('\n'));
}

const root = mkdtempSync(path.join(tmpdir(), 'forecast-views-'));
await execa('cp', ['-r', runDir, path.join(root, path.basename(runDir))]);
const port = 18090 + Math.floor(Math.random() * 500);
const serve = execa('node', ['bin/rocm-perf.js', 'serve', '--root', root, '--port', String(port)], {
  reject: false,
});
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
try {
  for (let k = 0; k < 50; k++) {
    const ok = await fetch(`http://127.0.0.1:${port}/`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
  await page.goto(`http://127.0.0.1:${port}/runs/${path.basename(runDir)}/`);
  await page.waitForSelector('p.forecast', { timeout: 20_000 });
  await page.waitForTimeout(1500);
  const file = path.resolve(outDir, 'forecast-page.png');
  await page.screenshot({ path: file, fullPage: false });
  console.log(`--- page: ${await page.textContent('p.forecast')}`);
  console.log(`screenshot: ${file}`);
} finally {
  await browser.close();
  serve.kill('SIGTERM');
  await serve;
  rmSync(root, { recursive: true, force: true });
}
