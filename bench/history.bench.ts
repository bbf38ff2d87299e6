// `npm run bench:history` (issue 39 item 4): serve over a history of N runs. It makes N run dirs under one root
// (bench/make-history-runs.ts: copies of fixtures/runs' two samples with spread stamps, lanes, harnesses, arches and
// statuses, a fresh data.json in each, a few damaged), starts the built `serve` as a user does (`node
// bin/rocm-perf.js serve`) and times, over HTTP from this process: the index `/` (first: from serve's start to the
// first list, and again), `/trends.html`
// (first and again), a filtered trends query, then the same after a restart of serve; serve's RSS (VmRSS and its
// peak VmHWM, from /proc, after the first start's requests and after the restart's) and the size of the run index file under the root.
//
// BENCH_SIZES (default 100,1000,3000; e.g. 100,1000,3000,10000) grows one root size by size. BENCH_CLI picks the
// build to time (default this checkout's bin/rocm-perf.js); BENCH_BASELINE_CLI adds another build (e.g. a copy of
// main's bin/ + dist/), timed on the same root in the same round, for a before/after in one table. Each build's
// first start finds no index (the file is deleted before it), so its first figures are its own full read of the
// root. BENCH_KEEP=1 keeps the root. Exits 1 when a goal (issue 39, at 10,000 runs) is missed by the build under
// test at the largest size ≥ 10,000.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeHistoryRuns } from './make-history-runs.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SIZES = (process.env.BENCH_SIZES ?? '100,1000,3000').split(',').map((s) => Number(s.trim()));
const cli = path.resolve(process.env.BENCH_CLI ?? path.join(repoRoot, 'bin/rocm-perf.js'));
const baseline = process.env.BENCH_BASELINE_CLI ? path.resolve(process.env.BENCH_BASELINE_CLI) : undefined;
const builds = [
  ...(baseline ? [{ label: 'baseline', bin: baseline }] : []),
  { label: 'this build', bin: cli },
];
const INDEX_FILE = '.runs-index.jsonl';

interface Served {
  child: ChildProcess;
  url: string;
}

/** Starts serve on a free port; resolves with its URL from the first stdout line. */
function startServe(bin: string, root: string): Promise<Served> {
  const child = spawn(
    process.execPath,
    [bin, 'serve', '--root', root, '--bind', '127.0.0.1', '--port', '0'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < 4000) stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
}

async function stopServe(served: Served): Promise<void> {
  const exited = new Promise<void>((resolve) => served.child.once('exit', () => resolve()));
  served.child.kill('SIGTERM');
  await exited;
}

/** One GET, timed to the last byte; the body is checked by the caller. */
async function timeGet(url: string): Promise<{ ms: number; body: string; status: number }> {
  const start = performance.now();
  const response = await fetch(url);
  const body = await response.text();
  return { ms: performance.now() - start, body, status: response.status };
}

/**
 * The first `/` a viewer gets a list from, timed from serve's start: serve answers 503 with the index's progress
 * while it loads (docs/history.md), so `/` is asked again every 250 ms until it answers 200. A build that holds
 * the first request until the index is built (before b7ae498) answers it at the same moment.
 */
async function timeFirstIndex(url: string): Promise<{ ms: number; body: string; status: number }> {
  const start = performance.now();
  for (;;) {
    const reply = await timeGet(url);
    if (reply.status !== 503) return { ...reply, ms: performance.now() - start };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** VmRSS and VmHWM of a process, in MB. */
function readRss(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

interface Figures {
  indexFirst: number;
  index: number;
  indexBytes: number;
  trendsFirst: number;
  trends: number;
  trendsBytes: number;
  filtered: number;
  filteredBytes: number;
  restartIndex: number;
  restartTrends: number;
  rss: number;
  peak: number;
  rssRestart: number;
  peakRestart: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function expectOk(what: string, reply: { status: number; body: string }, mustHave: string): void {
  if (reply.status !== 200 || !reply.body.includes(mustHave))
    throw new Error(
      `${what}: HTTP ${reply.status}, no ${JSON.stringify(mustHave)} in ${reply.body.slice(0, 300)}`,
    );
}

// A filter a user of a big history types: one harness in this fleet's lane over the last 90 days of the history.
function filteredQuery(newestMs: number): string {
  const from = new Date(newestMs - 90 * 86_400_000).toISOString().slice(0, 10);
  return `trends.html?lane=fleet&harness=warm&arch=gfx1201&from=${from}`;
}

async function measureBuild(bin: string, root: string, newestMs: number): Promise<Figures> {
  let served = await startServe(bin, root);
  const indexFirst = await timeFirstIndex(served.url);
  expectOk('index', indexFirst, 'rocm-perf runs');
  const indexAgain = [await timeGet(served.url), await timeGet(served.url), await timeGet(served.url)];
  const trendsFirst = await timeGet(`${served.url}trends.html`);
  expectOk('trends', trendsFirst, 'harness');
  const trendsAgain = [await timeGet(`${served.url}trends.html`), await timeGet(`${served.url}trends.html`)];
  const filtered = [
    await timeGet(served.url + filteredQuery(newestMs)),
    await timeGet(served.url + filteredQuery(newestMs)),
  ];
  expectOk('filtered trends', filtered[0]!, 'warm');
  const { rss, peak } = readRss(served.child.pid!);
  await stopServe(served);
  served = await startServe(bin, root);
  const restartIndex = await timeFirstIndex(served.url);
  const restartTrends = await timeGet(`${served.url}trends.html`);
  expectOk('trends after a restart', restartTrends, 'harness');
  const after = readRss(served.child.pid!);
  await stopServe(served);
  return {
    indexFirst: indexFirst.ms,
    index: median(indexAgain.map((r) => r.ms)),
    indexBytes: indexAgain[0]!.body.length,
    trendsFirst: trendsFirst.ms,
    trends: median(trendsAgain.map((r) => r.ms)),
    trendsBytes: trendsAgain[0]!.body.length,
    filtered: median(filtered.map((r) => r.ms)),
    filteredBytes: filtered[0]!.body.length,
    restartIndex: restartIndex.ms,
    restartTrends: restartTrends.ms,
    rss,
    peak,
    rssRestart: after.rss,
    peakRestart: after.peak,
  };
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

function indexFileBytes(root: string): number | undefined {
  try {
    return statSync(path.join(root, INDEX_FILE)).size;
  } catch {
    return undefined;
  }
}

const work = mkdtempSync(path.join(tmpdir(), 'rocm-perf-bench-history-'));
const root = path.join(work, 'runs');
const rows: string[] = [];
let failed = false;
try {
  console.log(
    `bench:history: ${SIZES.join(', ')} runs; builds: ${builds.map((b) => `${b.label} (${b.bin})`).join(', ')}`,
  );
  let made = 0;
  let newestMs = 0;
  for (const size of SIZES) {
    const t0 = performance.now();
    ({ newestMs } = makeHistoryRuns({ root, from: made, to: size }));
    made = size;
    console.log(
      `made ${size} runs under ${root} in ${s(performance.now() - t0)} (load ${loadavg()[0]!.toFixed(1)})`,
    );
    for (const build of builds) {
      // Every build's first start is its own: it finds no index (another build's, or the last size's).
      rmSync(path.join(root, INDEX_FILE), { force: true });
      const f = await measureBuild(build.bin, root, newestMs);
      const indexFile = indexFileBytes(root);
      const row = `| ${size} | ${build.label} | ${s(f.indexFirst)} / ${s(f.index)} (${kb(f.indexBytes)}) | ${s(f.trendsFirst)} | ${s(f.trends)} (${kb(f.trendsBytes)}) | ${s(f.filtered)} (${kb(f.filteredBytes)}) | ${s(f.restartIndex)} / ${s(f.restartTrends)} | ${f.rss.toFixed(0)} MB (peak ${f.peak.toFixed(0)}) / ${f.rssRestart.toFixed(0)} MB (peak ${f.peakRestart.toFixed(0)}) | ${indexFile === undefined ? '—' : kb(indexFile)} |`;
      rows.push(row);
      console.log(row);
      if (build.bin === cli && size >= 10_000) {
        const misses = [
          f.index > 300 ? `index ${s(f.index)} > 0.3 s` : '',
          f.trends > 500 ? `trends warm ${s(f.trends)} > 0.5 s` : '',
          f.restartTrends > 3000 ? `trends after a restart ${s(f.restartTrends)} > 3 s` : '',
          f.peak > 200 ? `serve RSS peak over the first start ${f.peak.toFixed(0)} MB > 200 MB` : '',
          f.peakRestart > 200 ? `serve RSS peak after a restart ${f.peakRestart.toFixed(0)} MB > 200 MB` : '',
          (indexFile ?? 0) > 20 * 1024 * 1024 ? `index file ${kb(indexFile!)} > 20 MB` : '',
        ].filter(Boolean);
        if (misses.length > 0) {
          failed = true;
          console.log(`goal missed at ${size} runs: ${misses.join('; ')}`);
        }
      }
    }
  }
  console.log(
    '\n| runs | build | index `/` first / again (page) | `/trends.html` first | again (page) | filtered trends (page) | after a restart: index / trends | serve RSS: first start / after a restart | index file |',
  );
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) console.log(row);
  console.log(
    `\nfiltered trends: /${filteredQuery(newestMs)}; load average now ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
} finally {
  if (process.env.BENCH_KEEP === '1') console.log(`kept ${root}`);
  else rmSync(work, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
