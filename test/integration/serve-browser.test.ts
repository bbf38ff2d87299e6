import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/serve/index.js';
import { type RunningServer } from '../../src/serve/create-server.js';
import { builderColour } from '../../src/report/chart-style.js';
import { writeFixtureRun } from '../../scripts/make-fixture-run.js';
import { createTempDir, type TempDir } from '../helpers/daemons/index.js';
import { CHROMIUM_ARGS } from '../helpers/chromium-args.js';

// The report page in Debian's headless Chromium, served by `serve` on 127.0.0.1: it renders (the server's SVG of
// the chart first, then the interactive chart in its place), a builder turned
// off in the legend loses its lines and bars, a node's CPU line turned off loses only that line, hovering a step band lists its RUN commands, and a change to
// data.json appears without a reload with the legend state kept.

const STAMP = '20260314T092000Z';
let temp: TempDir;
let profile: TempDir;
let server: RunningServer;
let context: BrowserContext;
let page: Page;
const errors: string[] = [];

/** Pixels of the chart canvas within `tolerance` of a colour, optionally inside a band of rows (CSS px). */
async function countPixels(
  colour: string,
  rows?: [number, number],
): Promise<{ count: number; x: number; y: number }> {
  return page.evaluate(
    ({ colour, rows }) => {
      const canvas = document.querySelector<HTMLCanvasElement>('#chart canvas')!;
      const ratio = canvas.width / canvas.clientWidth;
      const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
      let count = 0;
      let sx = 0;
      let sy = 0;
      for (
        let y = rows ? Math.floor(rows[0] * ratio) : 0;
        y < (rows ? Math.ceil(rows[1] * ratio) : canvas.height);
        y++
      ) {
        for (let x = 0; x < canvas.width; x++) {
          const i = (y * canvas.width + x) * 4;
          if (Math.abs(data[i]! - r!) + Math.abs(data[i + 1]! - g!) + Math.abs(data[i + 2]! - b!) < 24) {
            count++;
            sx += x;
            sy += y;
          }
        }
      }
      return { count, x: count ? sx / count / ratio : 0, y: count ? sy / count / ratio : 0 };
    },
    { colour, rows },
  );
}

/** The rows of the plots (Gantt and usage), below every legend: legend keys keep their colour when off. */
async function plotRows(): Promise<[number, number]> {
  return page.evaluate(() => {
    const grid = (window.rocmPerf!.chart.getOption() as { grid: { top: number }[] }).grid[0]!;
    return [grid.top, document.querySelector<HTMLCanvasElement>('#chart canvas')!.clientHeight];
  });
}

async function chartOrigin(): Promise<{ x: number; y: number }> {
  const box = await page.locator('#chart canvas').first().boundingBox();
  return { x: box!.x, y: box!.y };
}

beforeAll(async () => {
  temp = createTempDir('browser');
  profile = createTempDir('chromium-profile');
  await writeFixtureRun({
    dir: path.join(temp.path, STAMP),
    stamp: STAMP,
    nodeCount: 3,
    durationSeconds: 1800,
    seed: 7,
    sampleIntervalMs: 5000,
  });
  server = await startServer({ root: temp.path, bind: '127.0.0.1', port: 0, refreshMs: 200 });
  await server.indexReady();
  context = await chromium.launchPersistentContext(profile.path, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1400, height: 1000 },
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(`${server.url}runs/${STAMP}/`);
  // The first poll (2 s after the chart is drawn) repaints from data.json with the page's legend state, which a
  // dispatched legendUnSelect does not update: wait for it, so it cannot land between a test's action and check.
  await page.waitForFunction(() => (window.rocmPerf?.updates ?? 0) > 0, undefined, { timeout: 30_000 });
});

afterAll(async () => {
  await context?.close();
  await server?.close();
  temp?.remove();
  profile?.remove();
});

describe('the report page', () => {
  it('renders the chart and the tables, offline, without errors', async () => {
    expect(await page.locator('#chart canvas').count()).toBeGreaterThan(0);
    await expect.poll(() => page.locator('#summary table').count()).toBeGreaterThan(3);
    const screenshot = path.join(temp.path, 'page.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    if (process.env.ROCM_PERF_SCREENSHOT) await cp(screenshot, process.env.ROCM_PERF_SCREENSHOT);
    expect((await countPixels(builderColour(1))).count).toBeGreaterThan(200);
    expect(errors).toEqual([]);
  });

  it("paints the server's SVG of the chart first, then the interactive chart takes its place", async () => {
    const timing = await page.evaluate(
      () =>
        new Promise<{ prerenderMs: number[]; chartMs: number | undefined }>((resolve) => {
          const prerenderMs: number[] = [];
          const observer = new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as unknown as { identifier: string; renderTime: number }[])
              if (entry.identifier === 'chart-prerender') prerenderMs.push(entry.renderTime);
          });
          observer.observe({ type: 'element', buffered: true });
          setTimeout(() => {
            observer.disconnect();
            resolve({
              prerenderMs,
              chartMs: performance.getEntriesByName('rocm-perf:first-render')[0]?.startTime,
            });
          }, 200);
        }),
    );
    expect(timing.prerenderMs).toHaveLength(1);
    expect(timing.prerenderMs[0]).toBeGreaterThan(0);
    expect(timing.prerenderMs[0]).toBeLessThan(timing.chartMs!);
    expect(await page.locator('#chart-prerender').count()).toBe(0);
  });

  it('hovering a step band lists the RUN commands it covers', async () => {
    const target = await page.evaluate(() => {
      const state = window.rocmPerf!;
      const index = state.model.timeline.bands.findIndex(
        (b) =>
          b.phase === 'steps' && b.commands.some((c) => c.startsWith('RUN')) && b.endMs - b.startMs > 60_000,
      );
      const band = state.model.timeline.bands[index]!;
      const lane = state.model.timeline.lanes.findIndex((l) => l.node === band.node);
      const [x, y] = state.chart.convertToPixel({ xAxisIndex: 0, yAxisIndex: 0 }, [
        (band.startMs + band.endMs) / 2,
        lane,
      ]);
      return { x: x!, y: y! - 8, commands: band.commands };
    });
    const origin = await chartOrigin();
    await page.mouse.move(origin.x + target.x, origin.y + target.y);
    const tooltip = page.locator('#chart div').filter({ hasText: 'RUN ' }).last();
    await expect
      .poll(() => tooltip.textContent(), { timeout: 5000 })
      .toContain(target.commands.find((c) => c.startsWith('RUN'))!.replace(/ \(.*$/, ''));
    expect(await tooltip.textContent()).toContain('steps');
  });

  it('turning a builder off in the legend hides its lines and bars', async () => {
    await page.mouse.move(5, 5);
    const colour = builderColour(1);
    const legendRow = await countPixels(colour, [54, 74]);
    expect(legendRow.count).toBeGreaterThan(0);
    const plots = await plotRows();
    const before = await countPixels(colour, plots);
    const origin = await chartOrigin();
    await page.mouse.click(origin.x + legendRow.x, origin.y + legendRow.y);
    await expect.poll(async () => (await countPixels(colour, plots)).count).toBeLessThan(before.count / 50);
    const hidden = await page.evaluate(() => {
      const state = window.rocmPerf!;
      const lane = state.model.timeline.lanes[1]!;
      const option = state.chart.getOption() as { series: { id: string; data: unknown[][] }[] };
      const barsOnLane = option.series
        .filter((s) => s.id.startsWith('target:'))
        .flatMap((s) => s.data)
        .filter((d) => d[2] === 1).length;
      return { builder: lane.builder, selected: state.selected[lane.builder], barsOnLane };
    });
    expect(hidden).toMatchObject({ selected: false, barsOnLane: 0 });
  });

  it("turning one node's CPU line off in the legend hides only that line", async () => {
    const node = await page.evaluate(() => window.rocmPerf!.model.timeline.lanes[2]!.node);
    const colour = builderColour(2);
    const before = await countPixels(colour);
    const others = await countPixels(builderColour(0));
    await page.evaluate(
      (name) => window.rocmPerf!.chart.dispatchAction({ type: 'legendUnSelect', name }),
      `${node} CPU`,
    );
    await expect.poll(async () => (await countPixels(colour)).count).toBeLessThan(before.count);
    const after = await page.evaluate((node) => {
      const state = window.rocmPerf!;
      const option = state.chart.getOption() as {
        legend: { id: string; selected: Record<string, boolean> }[];
        series: { id: string; data: unknown[] }[];
      };
      const lines = option.legend.find((l) => l.id === 'lines')!.selected;
      return {
        off: Object.entries(lines)
          .filter(([, on]) => !on)
          .map(([name]) => name),
        cpuData: option.series.find((s) => s.id === `cpu:${node}`)!.data.length,
        memData: option.series.find((s) => s.id === `mem:${node}`)!.data.length,
      };
    }, node);
    // Its memory line and its bars stay; so do the other nodes' lines.
    expect(after.off).toContain(`${node} CPU`);
    expect(after.memData).toBeGreaterThan(0);
    expect((await countPixels(colour)).count).toBeGreaterThan(200);
    expect((await countPixels(builderColour(0))).count).toBeGreaterThan(others.count * 0.9);
  });

  it('shows a change to data.json without a reload, keeping the legend state', async () => {
    await page.evaluate(() => {
      (window as unknown as { marker: string }).marker = 'same page';
    });
    const updatesBefore = await page.evaluate(() => window.rocmPerf!.updates);
    const dir = path.join(temp.path, STAMP);
    const trace = await readFile(path.join(dir, 'trace-pytorch.json'), 'utf8');
    await writeFile(
      path.join(dir, 'trace-hipblaslt-wheel.json'),
      trace.replaceAll('pytorch', 'hipblaslt-wheel'),
    );
    await expect
      .poll(() => page.locator('#summary').textContent(), { timeout: 15_000 })
      .toContain('hipblaslt-wheel');
    const after = await page.evaluate(() => ({
      marker: (window as unknown as { marker?: string }).marker,
      updates: window.rocmPerf!.updates,
      selected: window.rocmPerf!.selected,
      builder: window.rocmPerf!.model.timeline.lanes[1]!.builder,
    }));
    expect(after.marker).toBe('same page');
    expect(after.updates).toBeGreaterThan(updatesBefore);
    expect(after.selected[after.builder]).toBe(false);
    expect((await countPixels(builderColour(1), await plotRows())).count).toBeLessThan(50);
    expect(errors).toEqual([]);
  });
});
