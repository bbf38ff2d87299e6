// The public API of trends/: makespan, build seconds and bytes across runs of one harness, regressions flagged.
export { buildTrends, toTrendRun } from './build-trends.js';
export { renderTrendsHtml, TRENDS_PAGE } from './render-trends-html.js';
export { toTrendRunFromEntry } from './from-run-index.js';
