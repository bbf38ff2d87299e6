import { readdirSync, readFileSync } from 'node:fs';
import { appendFile, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHistoryRuns } from '../../bench/make-history-runs.js';
import { writeFixtureRun } from '../../scripts/make-fixture-run.js';
import { writeRunReport } from '../../src/explain/write-run-report.js';
import { importRun } from '../../src/import/import-run.js';
import { createTempDir, type TempDir } from '../helpers/daemons/index.js';
import { startServedRoot, type ServedRoot } from '../helpers/serve-client.js';
import { openRunDir } from '../../src/run-dir/open-run-dir.js';

// serve over 250 runs (bench/make-history-runs.ts: copies of fixtures/runs' samples with spread stamps, lanes,
// arches and statuses, a few damaged) through the run index (docs/history.md). The truth each check holds the pages
// to is read here from the run dirs themselves (run.json, lane.txt), not from the index: the newest-first order,
// the filters, the counts, and what happens when the index is deleted, forged, or a run dir is removed or edited.

const RUNS = 250;
const INDEX = '.runs-index.jsonl';
let temp: TempDir;
let root: string;
let served: ServedRoot;

interface Truth {
  folder: string;
  startedAtMs: number;
  lane: string;
  harness: string;
  status: string;
}

/** Each run dir as its own files say (a run.json that is not JSON: damaged). */
function readTruth(): Truth[] {
  return readdirSync(root)
    .filter((name) => !name.startsWith('.'))
    .map((folder) => {
      const dir = path.join(root, folder);
      let lane = 'fleet';
      try {
        lane = readFileSync(path.join(dir, 'lane.txt'), 'utf8').trim();
      } catch {
        // no lane.txt: this fleet's lane
      }
      try {
        const run = JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')) as Truth;
        return { folder, startedAtMs: run.startedAtMs, lane, harness: run.harness, status: run.status };
      } catch {
        // Placed by the time its name spells (list-runs.ts's rule for a run without a readable start).
        const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z/.exec(folder)!;
        const [y, mo, d, h, mi, sec] = m.slice(1).map(Number);
        const startedAtMs = Date.UTC(y!, mo! - 1, d, h, mi, sec);
        return { folder, startedAtMs, lane, harness: 'unknown', status: 'damaged' };
      }
    });
}

/** The run folders a page lists, in order (`<li><a href="/runs/<folder>/">`). */
function listedFolders(html: string): string[] {
  const list = html.slice(
    html.indexOf('<ul id="runs">'),
    html.indexOf('</ul>', html.indexOf('<ul id="runs">')),
  );
  return [...list.matchAll(/<li><a href="\/runs\/([^/"]+)\/">/g)].map((m) => decodeURIComponent(m[1]!));
}

/** Every link of a page, entities decoded. */
function hrefs(html: string): string[] {
  return [...html.matchAll(/href="([^"]*)"/g)].map((m) =>
    m[1]!.replaceAll('&amp;', '&').replaceAll('&#38;', '&'),
  );
}

const restart = async (): Promise<void> => {
  await served.close();
  // The first full check of the run dirs is due 1 s after the start here (30 s by default).
  served = await startServedRoot({
    root,
    bind: '127.0.0.1',
    port: 0,
    indexChecks: { everyMs: 60_000, firstMs: 1000 },
  });
};

beforeAll(async () => {
  temp = createTempDir('serve-history');
  root = path.join(temp.path, 'runs');
  makeHistoryRuns({ root, from: 0, to: RUNS });
  served = await startServedRoot({ root, bind: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await served?.close();
  temp?.remove();
});

describe('serve: history through the run index', () => {
  it('pages the index newest first, 100 a page, with links to older pages', async () => {
    const truth = readTruth();
    const readable = truth.filter((t) => t.status !== 'damaged');
    expect(truth.length - readable.length).toBeGreaterThan(0); // the history holds damaged runs
    const newest = [...truth].sort((a, b) => b.startedAtMs - a.startedAtMs).map((t) => t.folder);
    const first = await served.get('/');
    expect(first.status).toBe(200);
    const page1 = listedFolders(first.body);
    expect(page1).toHaveLength(100);
    expect(page1.slice(0, 50)).toEqual(newest.slice(0, 50));
    expect(first.body).toContain(`${RUNS} runs; 1–100 shown`);
    expect(first.body).toContain('<a href="/?page=2">older ›</a>');
    const page3 = listedFolders((await served.get('/?page=3')).body);
    expect(page3).toHaveLength(RUNS - 200);
    expect(new Set([...page1, ...listedFolders((await served.get('/?page=2')).body), ...page3]).size).toBe(
      RUNS,
    );
    // The index file exists under the root, one valid line per run.
    const lines = (await readFile(path.join(root, INDEX), 'utf8')).trim().split('\n');
    expect(new Set(lines.map((l) => (JSON.parse(l) as { folder: string }).folder)).size).toBe(RUNS);
  });

  it('filters by lane and status, and its links keep the filters', async () => {
    const truth = readTruth();
    const aws = truth.filter((t) => t.lane === 'nightly-aws' && t.status !== 'damaged');
    const page = await served.get('/?lane=nightly-aws&status=completed');
    const want = aws.filter((t) => t.status === 'completed');
    const listed = listedFolders(page.body);
    expect(listed.length).toBe(Math.min(100, want.length));
    expect(new Set(listed).size).toBe(listed.length);
    for (const folder of listed) expect(want.map((t) => t.folder)).toContain(folder);
    expect(page.body).toContain(`${want.length} of ${RUNS} runs pass the filters`);
    // Every filter link keeps the other filter; the trends link carries both.
    const links = hrefs(page.body);
    expect(links).toContain('/?lane=nightly-aws&status=failed');
    expect(links).toContain('/?lane=box&status=completed');
    expect(links).toContain('/trends.html?lane=nightly-aws&status=completed');
    const damaged = listedFolders((await served.get('/?status=damaged')).body);
    expect(damaged.sort()).toEqual(
      truth
        .filter((t) => t.status === 'damaged')
        .map((t) => t.folder)
        .sort(),
    );
  });

  it('answers a bad filter with 400 naming the key and value', async () => {
    const reply = await served.get('/?from=2026-13-45');
    expect(reply.status).toBe(400);
    expect(reply.body).toContain('from "2026-13-45"');
    expect((await served.get('/trends.html?lane=%3Cx%3E')).status).toBe(400);
  });

  it('filters trends by lane, harness and a date range; per-target series only on demand', async () => {
    const truth = readTruth();
    const fromMs = Date.UTC(2026, 0, 2);
    const toMs = Date.UTC(2026, 0, 5) + 86_400_000;
    const counted = truth.filter(
      (t) =>
        t.lane === 'fleet' &&
        t.harness === 'warm' &&
        t.status !== 'damaged' &&
        t.startedAtMs >= fromMs &&
        t.startedAtMs < toMs,
    );
    const page = await served.get('/trends.html?lane=fleet&harness=warm&from=2026-01-02&to=2026-01-05');
    expect(page.status).toBe(200);
    const headings = [...page.body.matchAll(/<h2>(.*?)<\/h2>/g)].map((m) => m[1]);
    expect(headings).toEqual([`warm harness, lane fleet — ${counted.length} runs`]);
    expect(page.body).not.toContain('<table class="targets">');
    expect(hrefs(page.body)).toContain(
      '/trends.html?lane=fleet&harness=warm&from=2026-01-02&to=2026-01-05&targets=1',
    );
    const withTargets = await served.get(
      '/trends.html?lane=fleet&harness=warm&from=2026-01-02&to=2026-01-05&targets=1',
    );
    expect(withTargets.body).toContain('<table class="targets">');
    expect(withTargets.body).toContain('aiter-wheel build seconds');
  });

  it('sees a run dir removed by hand and a run a report adds, on the next request', async () => {
    const [gone] = readTruth()
      .filter((t) => t.status !== 'damaged')
      .sort((a, b) => b.startedAtMs - a.startedAtMs);
    await rm(path.join(root, gone!.folder), { recursive: true });
    expect(listedFolders((await served.get('/')).body)).not.toContain(gone!.folder);
    // A new run reported under the root: its summary is appended to the index by `report` itself.
    const stamp = '20270101T000000Z-new';
    const dir = path.join(root, stamp);
    await writeFixtureRun({ dir, stamp, harness: 'bench', seed: 3, nodeCount: 1, durationSeconds: 60 });
    const before = (await stat(path.join(root, INDEX))).size;
    await writeRunReport({ runDir: openRunDir(dir) });
    const appended = (await readFile(path.join(root, INDEX), 'utf8')).slice(before);
    expect(appended).toContain(`"folder":"${stamp}"`);
    expect(appended).toContain('"harness":"bench"');
    const page = await served.get('/');
    expect(listedFolders(page.body)[0]).toBe(stamp);
    expect(page.body).toMatch(new RegExp(`${stamp}</a> <span>bench · lane fleet · [^<]*completed</span>`));
  });

  it('has a run `import` brings in on the next request, in its lane, from the line import appended', async () => {
    const source = path.join(temp.path, 'elsewhere', '20270102T000000Z-ci');
    await writeFixtureRun({
      dir: source,
      stamp: '20270102T000000Z-ci',
      harness: 'cold',
      seed: 4,
      nodeCount: 1,
      durationSeconds: 60,
    });
    const before = (await stat(path.join(root, INDEX))).size;
    const imported = await importRun({
      source,
      lane: 'ci-nightly',
      root,
      force: false,
      extractTarball: () => Promise.resolve(),
      rewriteReport: (dir) => writeRunReport({ runDir: openRunDir(dir) }).then(() => undefined),
    });
    const appended = (await readFile(path.join(root, INDEX), 'utf8')).slice(before);
    expect(appended).toContain(`"folder":"${imported.stamp}"`);
    expect(appended).toContain('"lane":"ci-nightly"');
    const page = await served.get('/?lane=ci-nightly');
    expect(listedFolders(page.body)).toEqual([imported.stamp]);
  });

  it('re-reads a run whose run.json changed and a forged line soon after a restart, ignores lines naming no folder, rebuilds a deleted index', async () => {
    const [victim, forged] = readTruth()
      .filter((t) => t.status === 'completed')
      .sort((a, b) => b.startedAtMs - a.startedAtMs);
    await writeFile(path.join(root, victim!.folder, 'run.json'), '{"cut short');
    // A line naming a folder outside the root, a line that is not JSON, and a forged summary of a real run.
    const line = JSON.parse(
      (await readFile(path.join(root, INDEX), 'utf8'))
        .trim()
        .split('\n')
        .find((l) => l.includes(`"folder":"${forged!.folder}"`))!,
    ) as Record<string, unknown>;
    await appendFile(
      path.join(root, INDEX),
      [
        JSON.stringify({ ...line, folder: '../outside', harness: 'warm' }),
        '{not json',
        JSON.stringify({ ...line, harness: 'forged', sig: 'x' }),
      ].join('\n') + '\n',
    );
    await mkdir(path.join(temp.path, 'outside'), { recursive: true });
    await restart();
    // The restart answers from the file at once and checks the run dirs' signatures in the background: poll.
    let page = await served.get('/');
    for (let i = 0; i < 300 && (page.body.includes('forged') || !page.body.includes('broken: ')); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      page = await served.get('/');
    }
    expect(page.body).toContain(`${victim!.folder}</a> <span>unknown · lane`);
    expect(page.body).toMatch(new RegExp(`${victim!.folder}</a> <span>[^<]*broken: `));
    expect(page.body).not.toContain('forged');
    expect(page.body).not.toContain('outside');
    // Deleted: rebuilt from the run dirs on the next start, with the same runs.
    const count = readTruth().length;
    await rm(path.join(root, INDEX));
    await restart();
    expect((await served.get('/')).body).toContain(`${count} runs; 1–100 shown`);
    const lines = (await readFile(path.join(root, INDEX), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(count);
  });

  it('answers 503 with how far a first start has got, serves run pages meanwhile, then the runs', async () => {
    // Truth: the run dirs this test made, counted here from the root's own folders.
    const folders = readdirSync(root).filter((name) => !name.startsWith('.'));
    const aRun = readTruth().find((t) => t.status === 'completed')!.folder;
    await rm(path.join(root, INDEX));
    await served.close();
    const steps: { done: number; total: number }[] = [];
    // A viewer who asks when 100 runs have been looked at (150 still to read).
    let started!: (s: ServedRoot) => void;
    const ready = new Promise<ServedRoot>((resolve) => (started = resolve));
    let midway: ReturnType<ServedRoot['get']> | undefined;
    served = await startServedRoot(
      {
        root,
        bind: '127.0.0.1',
        port: 0,
        indexWaitMs: 0,
        onIndexProgress: ({ done, total }) => {
          steps.push({ done, total });
          if (done === 100) midway = ready.then((s) => s.get('/'));
        },
      },
      { awaitIndex: false },
    );
    started(served);
    const first = await served.get('/');
    expect(first.status).toBe(503);
    expect(first.headers['retry-after']).toBe('5');
    expect(first.body).toContain('<meta http-equiv="refresh" content="5">');
    expect(first.body).toContain('rocm-perf serve is building the run index');
    const metrics = await served.get('/metrics');
    expect(metrics.status).toBe(503);
    expect(metrics.body).toMatch(/^rocm-perf serve is building the run index/);
    // A run's own page does not wait for the index.
    expect((await served.get(`/runs/${aRun}/`)).status).toBe(200);
    await served.server.indexReady();
    const during = await midway!;
    expect(during.status).toBe(503);
    const shown = /\(no index file yet: every run is read once\): ([\d,]+) of ([\d,]+) runs looked at/.exec(
      during.body,
    );
    expect(Number(shown?.[2]?.replaceAll(',', ''))).toBe(folders.length);
    expect(Number(shown?.[1]?.replaceAll(',', ''))).toBeGreaterThanOrEqual(100);
    expect(Number(shown?.[1]?.replaceAll(',', ''))).toBeLessThan(folders.length);
    const page = await served.get('/');
    expect(page.status).toBe(200);
    expect(page.body).toContain(`${folders.length} runs; 1–100 shown`);
    // Every folder counted once, and the last step says the load is done.
    expect(steps.map((step) => step.done)).toEqual(folders.map((_, i) => i + 1));
    expect(steps.at(-1)).toEqual({ done: folders.length, total: folders.length });
  });
});
