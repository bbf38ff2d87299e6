// The public API of serve/.
export { startServer } from './create-server.js';
export { METRIC_FAMILIES, type MetricFamily } from './metrics/metric-catalog.js';
