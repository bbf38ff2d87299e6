import type { pushSite } from './push-site.js';

/** `publish --push` only: push-site.ts (ssh2) is loaded on first use, so a plain `publish` never loads ssh2. */
export const pushSiteLazily: typeof pushSite = async (options) =>
  (await import('./push-site.js')).pushSite(options);
