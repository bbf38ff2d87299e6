// The public API of trends/: makespan, build seconds and bytes across runs of one harness, regressions flagged.
export {
  buildCalibration,
  buildTrends,
  buildMetricTrend,
  CALIBRATION_GOAL,
  type Calibration,
  isRegression,
  toMedian,
  toTrendRun,
  DEFAULT_TREND_RULE,
  TRENDS_VERSION,
  type Trends,
  type TrendRule,
  type TrendRun,
  type HarnessTrend,
  type MetricTrend,
  type Regression,
  type TargetTrend,
  type TrendPoint,
} from './build-trends.js';
export { renderSparklineSvg, type SparklineOptions } from './render-sparkline-svg.js';
export {
  renderCalibration,
  renderTrendsHtml,
  TRENDS_PAGE,
  type RenderTrendsHtmlOptions,
} from './render-trends-html.js';
export { createTrendRunsReader, type TrendRunsReader } from './read-trend-runs.js';
