// The public API of publish/.
export {
  buildSite,
  buildManifest,
  planSiteSync,
  hashContent,
  SITE_MANIFEST,
  type SiteFile,
  type SiteRun,
  type SiteManifest,
} from './build-site.js';
export { readFinalRuns, readSiteRuns } from './read-site-runs.js';
export { buildPerfIndexFiles, buildPerfRunFiles, PERF_COPIED_FILES, type PerfRun } from './build-perf-dir.js';
export { writePerfDir, type WritePerfDirResult } from './write-perf-dir.js';
export { writeSite } from './write-site.js';
