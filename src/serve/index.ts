// The public API of serve/.
export { startServer } from './create-server.js';
export { type MetricFamily } from './metrics/metric-catalog.js';
