import path from 'node:path';
import { loadConfig } from '../config/index.js';
import {
  buildSite,
  pushSiteLazily,
  readFinalRuns,
  readSiteRuns,
  writePerfDir,
  writeSite,
} from '../publish/index.js';
import { readPageAssets } from '../report/index.js';
import { UsageError } from '../shared/errors.js';
import { throwFileAccessError } from '../shared/to-file-access-error.js';
import type { PublishValues } from './flags/index.js';
import { readSshAgent, type CliEnv } from './flags/read-cli-env.js';

// `rocm-perf publish [--push]`: the static site of every run (a top page with a run selector, newest first);
// with --push or PUSH=1 it is uploaded over SFTP to fleet.yaml's `publish` target, incrementally and atomically.
// `env`: the CLI's environment (PUSH, SSH_AUTH_SOCK); none when a test calls this directly.
export async function runPublishCommand(options: PublishValues, env: CliEnv = {}): Promise<void> {
  const push = options.push || env.PUSH === '1';
  if (options.into !== undefined) return publishInto(options.into, options, push);
  const publishTarget = push ? (await loadConfig({ fleetPath: options.fleet })).config.publish : undefined;
  if (push && !publishTarget) {
    throw new UsageError(`--push: ${path.resolve(options.fleet)} has no \`publish\` section`, {
      hint: 'add publish: {ssh: {host, user}, path} to fleet.yaml, or publish without --push',
    });
  }
  const { runs, loud, left, notes } = await readSiteRuns({ root: options.root, generatedAtMs: Date.now() });
  for (const note of notes) console.error(`note: ${note}`);
  for (const reason of left) console.error(`not published: ${reason}`);
  if (runs.length === 0)
    throw new UsageError(`no run dirs under ${options.root}`, { hint: 'pass --root or PERF_ROOT' });
  const files = buildSite({ runs, assets: { ...(await readPageAssets()) } });
  const out = await writeSite({ out: options.out ?? path.join(options.root, '.site'), files }).catch(
    throwFileAccessError({
      path: options.out ?? path.join(options.root, '.site'),
      flag: options.out === undefined ? '--root' : '--out',
      doing: 'write the site',
    }),
  );
  for (const warning of loud) console.error(`WARNING: ${warning}`);
  console.log(`site with ${runs.length} run(s) written to ${out}`);
  if (!publishTarget) return;
  const result = await pushSiteLazily({
    ssh: publishTarget.ssh,
    remotePath: publishTarget.path,
    files,
    sshAgent: readSshAgent(env),
  });
  const where = publishTarget.url ?? `${publishTarget.ssh.host}:${publishTarget.path}`;
  console.log(
    `pushed to ${where}: ${result.uploaded.length} uploaded, ${result.skipped.length} unchanged, ${result.removed.length} removed`,
  );
}

// `rocm-perf publish --into DIR`: the finished runs into the repository's data/perf (docs/publish.md).
async function publishInto(into: string, options: PublishValues, push: boolean): Promise<void> {
  if (push)
    throw new UsageError('--into and --push do different things', {
      hint: 'run `rocm-perf publish --push` for the site, and `rocm-perf publish --into DIR` for data/perf',
    });
  const { runs, loud, left, notes } = await readFinalRuns({ root: options.root });
  for (const note of notes) console.error(`note: ${note}`);
  for (const reason of left) console.error(`not published: ${reason}`);
  if (runs.length === 0)
    throw new UsageError(`no finished run dirs under ${options.root}`, { hint: 'pass --root or PERF_ROOT' });
  const result = await writePerfDir({ into, runs, force: options.force }).catch(
    throwFileAccessError({ path: into, flag: '--into', doing: 'write the runs into it' }),
  );
  for (const warning of loud) console.error(`WARNING: ${warning}`);
  console.log(
    `${result.dir}: ${result.written.length} run(s) added, ${result.replaced.length} replaced, ${result.unchanged.length} unchanged; ${result.total} in README.md and index.html`,
  );
}
