import type { DataFile } from '../artifacts/index.js';
import { buildChartLayoutFor } from './build-chart-option.js';
import { renderPageShell } from './render-page-shell.js';
import { renderSummaryHtml, renderWarningsHtml } from './render-summary-html.js';
import { escapeHtml } from '../shared/escape-html.js';

// index.html: the interactive page. It paints from the data.json embedded at render time (so it also works
// opened from disk), then polls data.json with ETag and updates in place. The page script (with the parts of
// ECharts it uses) is served beside it (`assetBase`), never from a CDN. Given the chart's SVG (renderChartSvg of
// the same model), the page carries it in the chart's place: the chart is on screen at first paint, before any
// script has run, and the page script replaces it with the interactive chart.

export const PAGE_SCRIPT = 'report-page.js';

export interface RenderHtmlOptions {
  model: DataFile;
  /** Where report-page.js lives, relative to the page: `./` or `../assets/`. */
  assetBase: string;
  /** Link back to the list of runs, when there is one. */
  indexHref?: string;
  pollMs?: number;
  /** renderChartSvg(model), trusted markup: shown until the interactive chart is drawn; without it the chart waits for ECharts. */
  chartSvg?: string;
}

const STYLE = `
body{font:14px system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#222;background:#fff}
header{display:flex;gap:16px;align-items:baseline;padding:10px 16px;border-bottom:1px solid #ddd}
header h1{font-size:17px;margin:0}#status{color:#666;font-size:12px}
main{padding:0 16px 32px}#chart{width:100%;min-width:900px;position:relative}
#chart-prerender p{position:absolute;top:4px;right:16px;margin:0;color:#888;font-size:12px}
ul.warnings{margin:8px 0;padding:8px 12px 8px 28px;background:#fff4e5;border:1px solid #f0c36d;border-radius:4px}
ul.warnings li.loud{color:#a4000f;font-weight:600}ul.warnings li.note{color:#555}
#error{display:none;margin:8px 0;padding:8px 12px;background:#fde2e1;border:1px solid #e0a0a0;color:#7a0000}
table{border-collapse:collapse;margin:6px 0 14px;font-size:13px}th,td{border:1px solid #e2e2e2;padding:3px 8px;text-align:left}
th{background:#f6f6f6}h2{font-size:15px;margin:18px 0 4px}h2 small{font-weight:normal;color:#666}`;

function embedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function renderHtml({
  model,
  assetBase,
  indexHref,
  pollMs = 2000,
  chartSvg,
}: RenderHtmlOptions): string {
  const { height } = buildChartLayoutFor(model);
  const title = `${model.run.stamp} · ${model.run.harness} run · rocm-perf`;
  const back = indexHref ? `<a href="${escapeHtml(indexHref)}">all runs</a>` : '';
  // Inline: as an <img> (a data: URL, or timeline.svg beside the page) it cost the page's main thread about twice
  // as much (0.3 s against 0.15 s at 24 lanes). The note comes after the SVG, so the frame that paints it shows the
  // whole chart: its elementtiming is what the bench reads as the chart's first paint. Inside HTML the parser puts
  // <svg> in its namespace itself: the xmlns URIs would only read as links.
  const prerender = chartSvg
    ? `<div id="chart-prerender">${chartSvg.replace(/ xmlns(?::xlink)?="[^"]*"/g, '')}<p elementtiming="chart-prerender">static view · the interactive chart is loading</p></div>`
    : '';
  const body = `<header>${back}<h1>${escapeHtml(title)}</h1><span id="status">rendered from data.json</span></header>
<main>
<div id="error" role="alert"></div>
<div id="warnings">${renderWarningsHtml(model)}</div>
<div id="chart" style="height:${height}px">${prerender}</div>
<section id="summary">${renderSummaryHtml(model)}</section>
</main>
<script type="application/json" id="initial-data">${embedJson(model)}</script>
<script src="${escapeHtml(assetBase)}${PAGE_SCRIPT}" data-poll-ms="${pollMs}" data-src="data.json"></script>`;
  return renderPageShell({ title, style: STYLE, body });
}
