import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataFileSchema, type DataFile } from '../../src/artifacts/index.js';
import { renderChartSvg, renderTargetsSvg } from '../../src/report/render-chart-svg.js';
import { createTempDir, type TempDir } from '../helpers/daemons/index.js';
import { CHROMIUM_ARGS } from '../helpers/chromium-args.js';

// The charts as a browser draws them (Debian's headless Chromium), over the shipped sample runs (fixtures/runs,
// real BuildKit on the fleet in a box). Geometry is read from the browser's own layout (getBBox of each drawn
// element), not from the option that produced it: every label inside the SVG's viewBox, each node's legend swatch
// in the colour of that node's bars, the forecast band's label clear of every bar. And the shipped page itself,
// opened from disk, draws its interactive chart (issue 36 items 3 and 5).

const repoRoot = path.resolve(import.meta.dirname, '../..');
const SAMPLES = ['gfx1201-warm', 'gfx1201-cold'] as const;
let profile: TempDir;
let context: BrowserContext;
let page: Page;

interface Drawn {
  tag: string;
  text: string;
  fill: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

async function readSampleModel(name: string): Promise<DataFile> {
  const file = path.join(repoRoot, 'fixtures/runs', name, 'data.json');
  return DataFileSchema.parse(JSON.parse(await readFile(file, 'utf8')));
}

/** Every text and filled path of an SVG as the browser lays it out, in the SVG's own units, plus its viewBox. */
async function layOut(svg: string): Promise<{ items: Drawn[]; viewBox: number[] }> {
  await page.setContent(`<body style="margin:0">${svg}</body>`);
  return page.evaluate(() => {
    const root = document.querySelector('svg')!;
    const viewBox = (root.getAttribute('viewBox') ?? '').split(/[\s,]+/).map(Number);
    const toRoot = root.getScreenCTM()!.inverse();
    const elements = Array.from(root.querySelectorAll<SVGGraphicsElement>('text, path, rect'));
    const items = elements.map((element) => {
      const box = element.getBoundingClientRect();
      const a = new DOMPoint(box.left, box.top).matrixTransform(toRoot);
      const b = new DOMPoint(box.right, box.bottom).matrixTransform(toRoot);
      return {
        tag: element.tagName,
        text: element.tagName === 'text' ? (element.textContent ?? '') : '',
        fill: (element.getAttribute('fill') ?? getComputedStyle(element).fill).toLowerCase(),
        x: a.x,
        y: a.y,
        width: b.x - a.x,
        height: b.y - a.y,
      };
    });
    return { items, viewBox };
  });
}

const overlaps = (a: Drawn, b: Drawn): boolean =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const centreY = (d: Drawn): number => d.y + d.height / 2;

beforeAll(async () => {
  profile = createTempDir('charts-chromium');
  context = await chromium.launchPersistentContext(profile.path, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1400, height: 1000 },
  });
  page = context.pages()[0] ?? (await context.newPage());
});

afterAll(async () => {
  await context?.close();
  profile?.remove();
});

describe.each(SAMPLES)('targets.svg of %s', (name) => {
  it('draws every label inside its viewBox (no target name cut at the left edge)', async () => {
    const model = await readSampleModel(name);
    const { items, viewBox } = await layOut(renderTargetsSvg(model));
    const [minX, minY, width, height] = viewBox as [number, number, number, number];
    const texts = items.filter((d) => d.tag === 'text' && d.text.trim() !== '');
    // Every target is labelled, with its whole name.
    for (const target of model.summary.targets)
      expect(texts.some((t) => t.text === `${target.target} (${target.node})`)).toBe(true);
    for (const text of texts) {
      expect(text.x, `"${text.text}" starts left of the viewBox`).toBeGreaterThanOrEqual(minX);
      expect(text.x + text.width, `"${text.text}" ends right of the viewBox`).toBeLessThanOrEqual(
        minX + width,
      );
      expect(text.y).toBeGreaterThanOrEqual(minY);
      expect(text.y + text.height).toBeLessThanOrEqual(minY + height);
    }
  });

  it("keys each node with a swatch in the colour of that node's build bars", async () => {
    const model = await readSampleModel(name);
    const { items } = await layOut(renderTargetsSvg(model));
    const paths = items.filter((d) => d.tag === 'path' && d.fill.startsWith('#') && d.width > 0);
    const texts = items.filter((d) => d.tag === 'text');
    const nodes = [...new Set(model.summary.targets.map((t) => t.node))];
    for (const node of nodes) {
      // The legend entry: the node's name with its swatch just left of it, on the same line.
      const label = texts.find((t) => t.text === node);
      expect(label, `no legend entry for ${node}`).toBeDefined();
      const swatch = paths
        .filter((p) => Math.abs(centreY(p) - centreY(label!)) < 4 && p.x + p.width <= label!.x + 1)
        .sort((a, b) => b.x + b.width - (a.x + a.width))[0];
      expect(swatch, `no swatch beside ${node}`).toBeDefined();
      // The node's bars: the leftmost bar on the row of each of its targets is the build part.
      for (const target of model.summary.targets.filter(
        (t) => t.node === node && (t.totalSeconds ?? 0) > 0,
      )) {
        const row = texts.find((t) => t.text === `${target.target} (${node})`)!;
        const bar = paths
          .filter((p) => Math.abs(centreY(p) - centreY(row)) < 4 && p.x > row.x + row.width)
          .sort((a, b) => a.x - b.x)[0];
        expect(bar, `no bar for ${target.target}`).toBeDefined();
        expect(swatch!.fill, `${node}'s swatch vs ${target.target}'s build bar`).toBe(bar!.fill);
      }
    }
    // Different nodes, different swatches: the key tells them apart.
    const fills = nodes.map((node) => {
      const label = texts.find((t) => t.text === node)!;
      return paths
        .filter((p) => Math.abs(centreY(p) - centreY(label)) < 4 && p.x + p.width <= label.x + 1)
        .sort((a, b) => b.x + b.width - (a.x + a.width))[0]!.fill;
    });
    expect(new Set(fills).size).toBe(nodes.length);
  });
});

describe.each(SAMPLES)('timeline.svg of %s', (name) => {
  it("puts the forecast band's label inside the viewBox and clear of every bar", async () => {
    const model = await readSampleModel(name);
    expect(model.summary.forecast?.banded).toBe(true);
    const { items, viewBox } = await layOut(renderChartSvg(model));
    const label = items.find((d) => d.tag === 'text' && d.text.includes('p10–p90'));
    expect(label, 'the band label is drawn').toBeDefined();
    const [minX, minY, width, height] = viewBox as [number, number, number, number];
    expect(label!.x).toBeGreaterThanOrEqual(minX);
    expect(label!.x + label!.width).toBeLessThanOrEqual(minX + width);
    expect(label!.y).toBeGreaterThanOrEqual(minY);
    expect(label!.y + label!.height).toBeLessThanOrEqual(minY + height);
    // The bars: filled paths in a colour other than white, grey backgrounds and the band's own translucent fill.
    const bars = items.filter(
      (d) =>
        d.tag === 'path' &&
        /^#[0-9a-f]{6}$/.test(d.fill) &&
        !['#ffffff', '#fafafa', '#f3f3f3'].includes(d.fill) &&
        d.width > 2 &&
        d.height > 8 &&
        d.height < 40,
    );
    expect(bars.length).toBeGreaterThan(model.summary.targets.length);
    const hidden = bars.filter((bar) => overlaps(label!, bar));
    expect(hidden.map((b) => `${b.fill} at ${b.x.toFixed(0)},${b.y.toFixed(0)}`)).toEqual([]);
  });
});

describe.each(SAMPLES)('the shipped page fixtures/runs/%s/index.html', (name) => {
  it('opened from disk (file://), draws its interactive chart in place of the static one', async () => {
    const errors: string[] = [];
    const onError = (error: Error): void => void errors.push(error.message);
    page.on('pageerror', onError);
    try {
      await page.goto(pathToFileURL(path.join(repoRoot, 'fixtures/runs', name, 'index.html')).href);
      await page.waitForFunction(
        () => performance.getEntriesByName('rocm-perf:first-render').length > 0,
        undefined,
        { timeout: 20_000 },
      );
      expect(await page.locator('#chart-prerender').count()).toBe(0);
      expect(await page.locator('#chart canvas').count()).toBeGreaterThan(0);
      expect(await page.locator('body').innerText()).not.toContain('the interactive chart is loading');
      expect(errors).toEqual([]);
    } finally {
      page.off('pageerror', onError);
    }
  });
});
