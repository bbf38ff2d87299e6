import path from 'node:path';
import { loadConfig } from '../config/load-config.js';
import { buildSite, readSiteRuns, writeSite } from '../publish/index.js';
import { readPageAssets } from '../report/page-assets.js';
import { UsageError } from '../shared/errors.js';
import type { PublishValues } from './flags/index.js';

// `rocm-perf publish [--push]`: the static site of every run (a top page with a run selector, newest first);
// with --push or PUSH=1 it is uploaded over SFTP to fleet.yaml's `publish` target, incrementally and atomically.
export async function runPublishCommand(options: PublishValues): Promise<void> {
  const push = options.push || process.env.PUSH === '1';
  const publishTarget = push ? (await loadConfig({ fleetPath: options.fleet })).config.publish : undefined;
  if (push && !publishTarget) {
    throw new UsageError(`--push: ${path.resolve(options.fleet)} has no \`publish\` section`, {
      hint: 'add publish: {ssh: {host, user}, path} to fleet.yaml, or publish without --push',
    });
  }
  const { runs, loud } = await readSiteRuns({ root: options.root, generatedAtMs: Date.now() });
  if (runs.length === 0)
    throw new UsageError(`no run dirs under ${options.root}`, { hint: 'pass --root or PERF_ROOT' });
  const files = buildSite({ runs, assets: { ...(await readPageAssets()) } });
  const out = await writeSite({ out: options.out ?? path.join(options.root, '.site'), files });
  for (const warning of loud) console.error(`WARNING: ${warning}`);
  console.log(`site with ${runs.length} run(s) written to ${out}`);
  if (!publishTarget) return;
  const { pushSite } = await import('../publish/push-site.js');
  const result = await pushSite({ ssh: publishTarget.ssh, remotePath: publishTarget.path, files });
  const where = publishTarget.url ?? `${publishTarget.ssh.host}:${publishTarget.path}`;
  console.log(
    `pushed to ${where}: ${result.uploaded.length} uploaded, ${result.skipped.length} unchanged, ${result.removed.length} removed`,
  );
}
