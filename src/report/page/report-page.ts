import { type EChartsType, init, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { z } from 'zod';
import { buildChartLayoutFor, buildChartOption } from '../build-chart-option.js';
import { type DataFile, DataFileSchema } from '../../artifacts/index.js';
import { TIMELINE_CHART_PARTS } from '../echarts-parts.js';
import { renderSummaryHtml, renderWarningsHtml } from '../render-summary-html.js';
import { formatZodIssues } from '../../shared/format-zod-issues.js';
import { errorMessage } from '../../shared/error-message.js';

// The browser side of index.html (bundled with esbuild into report-page.js, with the parts of ECharts the chart
// uses). Every data.json is checked against DataFileSchema — the same zod schema `report` writes with — before it
// reaches the chart. The page arrives with the server's SVG of the chart in the chart's place (#chart-prerender),
// so the chart is on screen at first paint; ECharts replaces it once that has been painted. Polls with
// If-None-Match; a 304 costs nothing. Legend state survives updates because the option is rebuilt with it.

interface PageState {
  chart: EChartsType;
  model: DataFile;
  selected: Record<string, boolean>;
  etag: string | null;
  updates: number;
  lastError: string | null;
}

declare global {
  interface Window {
    rocmPerf?: PageState;
  }
}

export function parseDataFile(json: unknown): { model: DataFile } | { error: string } {
  const result = DataFileSchema.safeParse(json);
  if (result.success) return { model: result.data };
  return {
    error: `data.json does not match the report schema (version ${String((json as { version?: unknown } | null)?.version)}): ${formatZodIssues(result.error.issues, { limit: 3 })}`,
  };
}

function byId(id: string): HTMLElement {
  const element = document.getElementById(id);
  if (!element) throw new Error(`page element #${id} missing`);
  return element;
}

function showError(state: Pick<PageState, 'lastError'>, message: string | null): void {
  state.lastError = message;
  const box = byId('error');
  box.textContent = message ?? '';
  box.style.display = message ? 'block' : 'none';
}

function paint(state: PageState, model: DataFile): void {
  const container = byId('chart');
  const { height } = buildChartLayoutFor(model);
  const resized = container.style.height !== `${height}px`;
  container.style.height = `${height}px`;
  if (resized) state.chart.resize();
  state.chart.setOption(buildChartOption(model, { interactive: true, selected: state.selected }), {
    replaceMerge: ['series'],
  });
  // The tables change only with the data: the page arrives with them, and a legend click leaves them as they are.
  if (model !== state.model) {
    byId('warnings').innerHTML = renderWarningsHtml(model);
    byId('summary').innerHTML = renderSummaryHtml(model);
  }
  state.model = model;
}

function setStatus(text: string): void {
  byId('status').textContent = text;
}

async function poll(state: PageState, src: string): Promise<void> {
  const headers: Record<string, string> = state.etag ? { 'If-None-Match': state.etag } : {};
  const response = await fetch(src, { headers, cache: 'no-cache' });
  if (response.status === 304) return;
  if (!response.ok) throw new Error(`GET ${src}: HTTP ${response.status}`);
  const parsed = parseDataFile(await response.json());
  if ('error' in parsed) {
    showError(state, parsed.error);
    return;
  }
  state.etag = response.headers.get('ETag');
  if (parsed.model.generatedAtMs !== state.model.generatedAtMs || state.updates === 0) {
    paint(state, parsed.model);
    state.updates += 1;
  }
  showError(state, null);
  setStatus(
    `data.json generated ${new Date(parsed.model.generatedAtMs).toISOString().replace('.000Z', 'Z')}${parsed.model.run.status === 'running' ? ' · live' : ''}`,
  );
}

/**
 * Resolves once the pre-rendered chart, if the page has one, has been painted: when the browser reports the paint
 * of the note after it (Element Timing; removing the note before that report would lose it), else after the next
 * frame; in any case within 2 s.
 */
async function waitForPrerender(): Promise<void> {
  if (!document.getElementById('chart-prerender')) return;
  await new Promise<void>((resolve) => {
    setTimeout(resolve, 2000);
    if (!PerformanceObserver.supportedEntryTypes.includes('element')) {
      requestAnimationFrame(() => setTimeout(resolve, 0));
      return;
    }
    const observer = new PerformanceObserver(() => {
      observer.disconnect();
      resolve();
    });
    observer.observe({ type: 'element', buffered: true });
  });
}

function start({ pollMs, src }: { pollMs: number; src: string }): void {
  const parsed = parseDataFile(JSON.parse(byId('initial-data').textContent ?? 'null'));
  if ('error' in parsed) {
    byId('chart').replaceChildren(); // the pre-render shows data the page refused
    showError({ lastError: null }, parsed.error);
    return;
  }
  const chart = init(byId('chart'), null, { renderer: 'canvas' }); // drops the pre-render
  const state: PageState = {
    chart,
    model: parsed.model,
    selected: {},
    etag: null,
    updates: 0,
    lastError: null,
  };
  window.rocmPerf = state;
  chart.on('finished', () => {
    if (performance.getEntriesByName('rocm-perf:first-render').length === 0)
      performance.mark('rocm-perf:first-render');
  });
  paint(state, parsed.model);
  chart.on('legendselectchanged', (event: unknown) => {
    // Each legend reports only its own names; merge so the other legends' state is kept.
    state.selected = { ...state.selected, ...(event as { selected: Record<string, boolean> }).selected };
    paint(state, state.model);
  });
  window.addEventListener('resize', () => chart.resize());
  if (location.protocol === 'file:' || !(pollMs > 0)) return;
  const tick = (): void => {
    poll(state, src)
      .catch((error: unknown) => setStatus(`poll failed: ${errorMessage(error)}; retrying`))
      .finally(() => setTimeout(tick, pollMs));
  };
  setTimeout(tick, pollMs);
}

if (typeof document !== 'undefined') {
  use([...TIMELINE_CHART_PARTS, CanvasRenderer]);
  // The page checks one data.json at a time, cold: zod's generated validators cost more to build than they save
  // there (the first check of a 24-node data.json took 0.2 s with them, 0.14 s without), and serve's CSP forbids
  // generating code anyway.
  z.config({ jitless: true });
  const script = document.currentScript as HTMLScriptElement | null;
  const options = { pollMs: Number(script?.dataset.pollMs ?? 2000), src: script?.dataset.src ?? 'data.json' };
  void waitForPrerender().then(() => start(options));
}
