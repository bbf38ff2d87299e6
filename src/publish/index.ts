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
export { readSiteRuns } from './read-site-runs.js';
export { writeSite } from './write-site.js';
