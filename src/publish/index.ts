// The public API of publish/.
export { buildSite } from './build-site.js';
export { pushSiteLazily } from './push-site-lazily.js';
export { readFinalRuns, readSiteRuns } from './read-site-runs.js';
export { writePerfDir } from './write-perf-dir.js';
export { writeSite } from './write-site.js';
