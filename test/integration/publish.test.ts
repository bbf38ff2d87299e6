import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPublishCommand } from '../../src/commands/publish.js';
import { buildSite, readSiteRuns } from '../../src/publish/index.js';
import { SITE_MANIFEST } from '../../src/publish/build-site.js';
import { pushSite } from '../../src/publish/push-site.js';
import { readPageAssets } from '../../src/report/page-assets.js';
import { writeFixtureRun } from '../../scripts/make-fixture-run.js';
import { createTempDir, startSshd, type RunningSshd, type TempDir } from '../helpers/daemons/index.js';

// `publish` builds the static site; `--push` uploads it over SFTP to a real sshd (Debian's openssh-server) on
// loopback with a throwaway key: incrementally (unchanged files skipped) and atomically (no partial files).

let root: TempDir;
let remote: TempDir;
let sshd: RunningSshd;

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(path.join(dir, entry.name), relative)));
    else out.push(relative);
  }
  return out.sort();
}

beforeAll(async () => {
  root = createTempDir('publish-runs');
  remote = createTempDir('publish-remote');
  await writeFixtureRun({
    dir: path.join(root.path, '20260310T080000Z'),
    stamp: '20260310T080000Z',
    harness: 'cold',
    nodeCount: 2,
    durationSeconds: 900,
    seed: 1,
    sampleIntervalMs: 10_000,
  });
  await writeFixtureRun({
    dir: path.join(root.path, '20260312T080000Z'),
    stamp: '20260312T080000Z',
    nodeCount: 2,
    durationSeconds: 900,
    seed: 2,
    sampleIntervalMs: 10_000,
  });
  sshd = await startSshd();
});

afterAll(async () => {
  await sshd?.stop();
  root?.remove();
  remote?.remove();
});

describe('publish', () => {
  it('builds a site: a top page selecting every run newest first, each run page with offline assets', async () => {
    const out = path.join(root.path, 'site-out');
    const fleet = path.join(root.path, 'fleet.yaml');
    await runPublishCommand({
      root: root.path,
      out,
      push: false,
      into: undefined,
      force: false,
      fleet,
      logLevel: 'warn',
      debug: false,
    });
    const files = await listFiles(out);
    expect(files).toContain('index.html');
    expect(files).toContain('assets/report-page.js');
    expect(files).not.toContain('assets/echarts.min.js');
    expect(files).toContain('runs/20260312T080000Z/data.json');
    expect(files).toContain('runs/20260310T080000Z/timeline.svg');
    expect(files).toContain(SITE_MANIFEST);
    const top = await readFile(path.join(out, 'index.html'), 'utf8');
    expect(top).toContain('<select id="run-select">');
    expect(top.indexOf('20260312T080000Z')).toBeLessThan(top.indexOf('20260310T080000Z'));
    expect(top).toContain('cold');
    const page = await readFile(path.join(out, 'runs/20260310T080000Z/index.html'), 'utf8');
    expect(page).toContain('src="../../assets/report-page.js"');
    expect(page).toContain('<div id="chart-prerender"><svg ');
    expect(page).not.toMatch(/https?:\/\//);
  });

  it('publish --into writes each finished run into a git repository’s data/perf: small final files only, a README table and a selector; again changes nothing; a changed run is refused without --force', async () => {
    const repo = path.join(root.path, 'results-repo');
    await mkdir(repo);
    execFileSync('git', ['init', '-q', repo]);
    const publishInto = (force = false) =>
      runPublishCommand({
        root: root.path,
        out: undefined,
        push: false,
        into: path.join(repo, 'data/perf'),
        force,
        fleet: path.join(root.path, 'fleet.yaml'),
        logLevel: 'warn',
        debug: false,
      });
    await publishInto();
    const perf = path.join(repo, 'data/perf');
    const files = await listFiles(perf);
    for (const stamp of ['20260310T080000Z', '20260312T080000Z'])
      for (const name of ['data.json', 'report.md', 'timeline.svg', 'targets.svg', 'run.json', 'plan.json'])
        expect(files).toContain(`${stamp}/${name}`);
    expect(files.filter((file) => /samples|trace-|zot|sccache|status-|\.log$/.test(file))).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(['README.md', 'index.html', 'assets/runs-index.js']));
    const readme = await readFile(path.join(perf, 'README.md'), 'utf8');
    const rows = readme.split('\n').filter((line) => line.startsWith('| ['));
    expect(rows.map((row) => /\[(\d{8}T\d{6}Z)\]/.exec(row)?.[1])).toEqual([
      '20260312T080000Z',
      '20260310T080000Z',
    ]);
    expect(rows[1]).toContain('| cold | fleet |');
    const index = await readFile(path.join(perf, 'index.html'), 'utf8');
    expect(index).toContain('<select id="run-select">');
    expect(index).toContain('20260312T080000Z/report.md');
    // run.json is copied byte for byte; data.json is the run as of its end.
    expect(await readFile(path.join(perf, '20260310T080000Z/run.json'))).toEqual(
      await readFile(path.join(root.path, '20260310T080000Z/run.json')),
    );
    execFileSync('git', ['-C', repo, 'add', '-A']);
    execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'runs']);

    await publishInto();
    expect(execFileSync('git', ['-C', repo, 'status', '--porcelain'], { encoding: 'utf8' })).toBe('');

    const runJson = path.join(root.path, '20260310T080000Z/run.json');
    const original = await readFile(runJson, 'utf8');
    await writeFile(runJson, original.replace('"harness": "cold"', '"harness": "cold" '));
    try {
      await expect(publishInto()).rejects.toThrow(
        /already holds run 20260310T080000Z, and run\.json differs/,
      );
      expect(execFileSync('git', ['-C', repo, 'status', '--porcelain'], { encoding: 'utf8' })).toBe('');
      await publishInto(true);
      expect(execFileSync('git', ['-C', repo, 'status', '--porcelain'], { encoding: 'utf8' })).toBe(
        ' M data/perf/20260310T080000Z/run.json\n',
      );
    } finally {
      await writeFile(runJson, original);
    }
  });

  it('pushes over SFTP, then skips unchanged files and replaces changed ones atomically', async () => {
    const ssh = {
      host: sshd.host,
      port: sshd.port,
      user: sshd.user,
      identity_file: sshd.privateKeyPath,
      known_hosts: sshd.knownHostsPath,
    };
    const remotePath = path.join(remote.path, 'www', 'perf');
    const first = buildSite({
      runs: (await readSiteRuns({ root: root.path, generatedAtMs: 1 })).runs,
      assets: { ...(await readPageAssets()) },
    });
    const pushed = await pushSite({ ssh, remotePath, files: first, sshAgent: undefined });
    expect(pushed.uploaded).toHaveLength(first.length);
    expect(pushed.uploaded[pushed.uploaded.length - 1]).toBe('index.html');
    expect(await listFiles(remotePath)).toEqual([...first.map((f) => f.path), SITE_MANIFEST].sort());
    const scriptBefore = await stat(path.join(remotePath, 'assets/report-page.js'));

    const again = await pushSite({ ssh, remotePath, files: first, sshAgent: undefined });
    expect(again.uploaded).toEqual([]);
    expect(again.skipped).toHaveLength(first.length);

    const changed = first
      .map((f) =>
        f.path === 'runs/20260312T080000Z/data.json'
          ? { ...f, content: Buffer.from('{"changed":true}\n') }
          : f,
      )
      .filter((f) => f.path !== 'runs/20260310T080000Z/report.md');
    const third = await pushSite({ ssh, remotePath, files: changed, sshAgent: undefined });
    expect(third.uploaded).toEqual(['runs/20260312T080000Z/data.json']);
    expect(third.removed).toEqual(['runs/20260310T080000Z/report.md']);
    expect(await readFile(path.join(remotePath, 'runs/20260312T080000Z/data.json'), 'utf8')).toBe(
      '{"changed":true}\n',
    );
    const remoteFiles = await listFiles(remotePath);
    expect(remoteFiles.some((f) => f.includes('.upload-'))).toBe(false);
    expect(remoteFiles).not.toContain('runs/20260310T080000Z/report.md');
    expect((await stat(path.join(remotePath, 'assets/report-page.js'))).mtimeMs).toBe(scriptBefore.mtimeMs);
  });

  it('publish --push reads the target from fleet.yaml', async () => {
    const fleetText = await readFile(path.resolve(import.meta.dirname, '../../fleet.yaml'), 'utf8');
    const fleet = parse(fleetText) as Record<string, unknown>;
    const remotePath = path.join(remote.path, 'from-fleet');
    fleet.publish = {
      ssh: {
        host: sshd.host,
        port: sshd.port,
        user: sshd.user,
        identity_file: sshd.privateKeyPath,
        known_hosts: sshd.knownHostsPath,
      },
      path: remotePath,
    };
    const fleetPath = path.join(root.path, 'fleet-push.yaml');
    await writeFile(fleetPath, stringify(fleet));
    await runPublishCommand({
      root: root.path,
      out: path.join(root.path, 'site-push'),
      push: true,
      into: undefined,
      force: false,
      fleet: fleetPath,
      logLevel: 'warn',
      debug: false,
    });
    const files = await listFiles(remotePath);
    expect(files).toContain('runs/20260310T080000Z/index.html');
    expect(files).toContain(SITE_MANIFEST);
  });
});
