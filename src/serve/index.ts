// The public API of serve/.
export { startServer } from './create-server.js';
export { createIndexProgressPrinter } from './describe-index-build.js';
export { type MetricFamily } from './metrics/metric-catalog.js';
