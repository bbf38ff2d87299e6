export type { TraceCollector } from './collect-traces.js';
export { type MeasuredResources, type MeasureEffects, startMeasured } from './start-measured.js';
