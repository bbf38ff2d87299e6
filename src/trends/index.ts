// The public API of trends/: makespan, build seconds and bytes across runs of one harness, regressions flagged.
export {
  buildCalibration,
  buildTrends,
  buildMetricTrend,
  isRegression,
  toMedian,
  toTrendRun,
  DEFAULT_TREND_RULE,
  type TrendRun,
  type HarnessTrend,
} from './build-trends.js';
export { renderSparklineSvg } from './render-sparkline-svg.js';
export { renderCalibration, renderTrendsHtml, TRENDS_PAGE } from './render-trends-html.js';
export { toTrendRunFromEntry } from './from-run-index.js';
