import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { RunFile } from '../../src/artifacts/index.js';
import { isManifestPut, isStoredWrite, readRegistryTruth, toRepository } from '../fleet/index.js';
import type { RunningFleet } from '../fleet/index.js';
import { sleep } from '../helpers/daemons/index.js';
import { expectMarkdownMatchesRows, expectSummaryMatchesData } from '../helpers/check-run-summary.js';
import {
  listRunDirs,
  readData,
  readLines,
  readRun,
  runDirOf,
  spawnCli,
  useHarnessBox,
} from './harness-helpers.js';

// Issue 16 item 3, "rotation loses nothing": a warm run on the fleet in a box while Debian's logrotate rotates both
// cache logs mid-run — the Zot log with copytruncate + compress (the proxy writes it with O_APPEND), the nginx log
// with rename + create + a postrotate USR1 to nginx's master. The run's registry and sccache figures must equal
// what happened outside the product: the proxy's own request record, and nginx's log read by this test across all
// its pieces (current and rotated). The same run's end-of-run summary (issue 38 item 5, docs/summary.md) is held to
// its data.json, on stdout and in the GITHUB_STEP_SUMMARY file.

const SAMPLE_INTERVAL_MS = 500;
const { box } = useHarnessBox({
  fleet: { scale: { timeScale: 1 / 150, linkScale: 0.5 } },
  rootName: 'harness-rotation',
  sampleIntervalMs: SAMPLE_INTERVAL_MS,
});

/** What a CI job's earlier step left in its summary file: appended to, never truncated. */
const EARLIER_STEP = '## an earlier step of this job\n\nits own summary\n';
/** serve's address as a user configured it (not serve's defaults), for the summary's serve URL. */
const SERVE_ENV = { PERF_BIND: '127.0.0.1', PERF_PORT: '8137' };

/** The warm run as useHarnessBox's runHarness starts it, with GITHUB_STEP_SUMMARY and serve's address set. */
async function runWarm(
  fleet: RunningFleet,
  root: string,
  summaryFile: string,
): Promise<{ runDir: string; stdout: string }> {
  const args = ['warm', '--root', root, '--sample-interval-ms', String(SAMPLE_INTERVAL_MS)];
  const result = await spawnCli(fleet, args, { ...SERVE_ENV, GITHUB_STEP_SUMMARY: summaryFile });
  expect(result.exitCode, `warm failed:\n${String(result.stderr).slice(-3000)}`).toBe(0);
  return { runDir: runDirOf(String(result.stdout)), stdout: String(result.stdout) };
}

/** Runs the real logrotate on one log with a throwaway config and state file. */
function runLogrotate(fleet: RunningFleet, log: string, body: string): void {
  const conf = path.join(fleet.dir, `logrotate-${path.basename(log)}.conf`);
  writeFileSync(conf, `${log} {\n  ${body.trim().split('\n').join('\n  ')}\n}\n`);
  execFileSync('logrotate', ['-f', '-s', path.join(fleet.dir, 'logrotate.state'), conf]);
}

/** Waits until `check` holds, polling every 50 ms; throws `what` once the run is over or 120 s have passed. */
async function waitFor(what: string, check: () => boolean, isOver: () => boolean): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!check()) {
    if (isOver() || Date.now() > deadline) throw new Error(`the run ended before ${what}`);
    await sleep(50);
  }
}

/**
 * Once the harness has appended a good part of both logs (so there is something to lose), rotate each. copytruncate loses what
 * the writer appends between its copy and its truncate (logrotate's limit, not the product's), so the Zot log is
 * rotated with its writer, the registry proxy, frozen for that moment (SIGSTOP/SIGCONT: requests wait, none fail).
 */
async function rotateMidRun(fleet: RunningFleet, root: string, isOver: () => boolean): Promise<number> {
  let runDir = '';
  await waitFor(
    'its run dir appeared',
    () => {
      runDir = path.join(root, listRunDirs(root)[0] ?? '.none');
      return existsSync(path.join(runDir, 'run.json'));
    },
    isOver,
  );
  // A quarter or so of the run's traffic (a warm run on this box: ~300 registry requests, ~600 sccache ones).
  const lineCount = (file: string) =>
    existsSync(file) ? readFileSync(file, 'utf8').split('\n').length - 1 : 0;
  await waitFor(
    'the harness appended 40 Zot lines and 100 nginx lines',
    () =>
      lineCount(path.join(runDir, 'zot.jsonl')) >= 40 && lineCount(path.join(runDir, 'sccache.log')) >= 100,
    isOver,
  );
  const { zotLogPath, nginxLogPath, nginxPidPath } = fleet.services;
  const resume = fleet.pauseRegistryProxy();
  try {
    runLogrotate(fleet, zotLogPath, 'rotate 5\ncopytruncate\ncompress');
  } finally {
    resume();
  }
  runLogrotate(
    fleet,
    nginxLogPath,
    `rotate 5\ncreate\npostrotate\n  kill -USR1 "$(cat ${nginxPidPath})"\nendscript`,
  );
  return Date.now();
}

/** Every piece of a log, in no particular order: the current file and its rotated siblings, gunzipped. */
function readAllPieces(log: string): string[] {
  const dir = path.dirname(log);
  const base = path.basename(log);
  return readdirSync(dir)
    .filter((name) => name === base || name.startsWith(`${base}.`))
    .map((name) => {
      const bytes = readFileSync(path.join(dir, name));
      return (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
    });
}

const toJsonLines = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** How many lines per `METHOD status`, sorted: equal maps mean no line lost or counted twice. */
function countBy(lines: readonly { method?: unknown; status?: unknown }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { method, status } of lines)
    counts[`${String(method)} ${String(status)}`] = (counts[`${String(method)} ${String(status)}`] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}

function windowOf(run: RunFile): { fromMs: number; toMs: number } {
  if (run.measuredStartedAtMs === null || run.finishedAtMs === null) throw new Error('the run has no window');
  return { fromMs: run.measuredStartedAtMs, toMs: run.finishedAtMs };
}

/** The proxy's record of the nodes' requests during the measured run. */
function readRegistryTruthInRun(fleet: RunningFleet, run: RunFile) {
  const { fromMs, toMs } = windowOf(run);
  const addresses = new Set(fleet.nodes.map((node) => node.address));
  return readRegistryTruth(fleet.services.registryTruthPath).filter(
    (line) => addresses.has(line.clientIp) && line.firstByteMs >= fromMs && line.firstByteMs <= toMs,
  );
}

/** nginx's own lines for the nodes' requests during the measured run, from every piece of its log. */
function readNginxTruthInRun(fleet: RunningFleet, run: RunFile) {
  const { fromMs, toMs } = windowOf(run);
  const addresses = new Set(fleet.nodes.map((node) => node.address));
  return readAllPieces(fleet.services.nginxLogPath)
    .flatMap(toJsonLines)
    .filter((line) => {
      const ms = Number(line.msec) * 1000;
      return addresses.has(String(line.remote_addr)) && ms >= fromMs && ms <= toMs;
    });
}

const isKey = (line: Record<string, unknown>) => /\/[0-9a-f]{64}$/.test(String(line.uri));

describe('log rotation during a run on the fleet in a box', () => {
  it('warm: both cache logs rotated mid-run by logrotate; registry and sccache figures equal the proxy’s and nginx’s own record', async () => {
    const { fleet, root } = box();
    const summaryFile = path.join(tmpdir(), `rocm-perf-step-summary-${process.pid}.md`);
    writeFileSync(summaryFile, EARLIER_STEP);
    let over = false;
    const running = runWarm(fleet, root, summaryFile).finally(() => (over = true));
    const rotating = rotateMidRun(fleet, root, () => over);
    const [{ runDir, stdout }, rotatedAtMs] = await Promise.all([running, rotating]);
    const run = readRun(runDir);
    const data = readData(runDir);
    expect(run.status).toBe('completed');
    expect(rotatedAtMs, 'the rotations happened after the run ended').toBeLessThan(run.finishedAtMs ?? 0);

    // Each log was followed across its rotation, and no slice says it is missing anything.
    for (const slice of run.logs ?? []) {
      expect(slice.warning, `${slice.file}: ${slice.warning}`).toBeUndefined();
      expect(
        new Set(slice.segments?.map((segment) => segment.generation)),
        `${slice.file} segments: ${JSON.stringify(slice.segments)}`,
      ).toEqual(new Set([0, 1]));
    }
    expect(run.logs?.map((slice) => slice.file).sort()).toEqual(['sccache.log', 'zot.jsonl']);
    for (const slice of run.logs ?? []) {
      const pieces = slice.segments?.map(
        (segment) =>
          `${segment.generation} ${segment.source} ${path.basename(segment.remotePath)} [${segment.fromOffset}, ${segment.toOffset})`,
      );
      console.log(`rotation run: ${slice.file} segments: ${pieces?.join(', ')}`);
      // The part before the rotation was read from the rotated copy (zot: .1 or .1.gz; nginx: .1), not only kept live.
      const first = slice.segments?.find(
        (segment) => segment.generation === 0 && segment.source === 'remote',
      );
      expect(first?.remotePath, JSON.stringify(slice.segments)).toMatch(/\.1(\.gz)?$/);
    }
    const addresses = new Set(fleet.nodes.map((node) => node.address));

    // Registry: logrotate itself lost nothing (its copy + the truncated log hold every request the proxy saw) …
    const truth = readRegistryTruthInRun(fleet, run);
    const fromNodes = (line: Record<string, unknown>) =>
      addresses.has(String(line.clientIP).split(':')[0] ?? '');
    const everNodes = readRegistryTruth(fleet.services.registryTruthPath).filter((line) =>
      addresses.has(line.clientIp),
    );
    const zotPieces = readAllPieces(fleet.services.zotLogPath).flatMap(toJsonLines).filter(fromNodes);
    expect(
      countBy(zotPieces.map((line) => ({ method: line.method, status: line.statusCode }))),
      'logrotate’s copytruncate lost lines between its copy and its truncate (not the product’s doing)',
    ).toEqual(countBy(everNodes));
    const truthCounts = countBy(truth);
    expect(
      countBy(zotPieces.map((line) => ({ method: line.method, status: line.statusCode }))),
      'logrotate’s copytruncate lost lines between its copy and its truncate (not the product’s doing)',
    ).toEqual(truthCounts);
    // … and the run's Zot slice holds each of the proxy's requests exactly once.
    const sliced = readLines(path.join(runDir, 'zot.jsonl')).filter(fromNodes);
    expect(countBy(sliced.map((line) => ({ method: line.method, status: line.statusCode })))).toEqual(
      truthCounts,
    );
    const stored = {
      cache: { bytes: 0, blobs: 0, manifests: 0 },
      image: { bytes: 0, blobs: 0, manifests: 0 },
    };
    for (const line of truth.filter(isStoredWrite)) {
      const side = stored[(toRepository(line.path) ?? '').endsWith('/cache') ? 'cache' : 'image'];
      side.bytes += line.requestBytes;
      if (isManifestPut(line)) side.manifests++;
      else side.blobs++;
    }
    const registry = data.summary.registry;
    console.log(
      `rotation run: proxy ${truth.length} requests, stored ${JSON.stringify(stored)}; report cache ${JSON.stringify(registry.cache)} image ${JSON.stringify(registry.image)}`,
    );
    expect(registry.writesWithoutSize).toBe(0);
    for (const side of ['cache', 'image'] as const) {
      expect(registry[side].bytesWritten, side).toBe(stored[side].bytes);
      expect(registry[side].blobsWritten, side).toBe(stored[side].blobs);
      expect(registry[side].manifestsWritten, side).toBe(stored[side].manifests);
    }
    expect(stored.cache.bytes + stored.image.bytes).toBeGreaterThan(0);

    // sccache: nginx's own lines across its current and rotated log, against the run's slice and data.json.
    const nginx = readNginxTruthInRun(fleet, run);
    expect(nginx.length).toBeGreaterThan(0);
    const slicedSccache = readLines(path.join(runDir, 'sccache.log')).filter((line) =>
      addresses.has(String(line.remote_addr)),
    );
    expect(countBy(slicedSccache)).toEqual(countBy(nginx));
    const keys = nginx.filter(isKey);
    const expected = {
      hits: keys.filter((line) => line.method === 'GET' && [200, 206].includes(Number(line.status))).length,
      misses: keys.filter((line) => line.method === 'GET' && Number(line.status) === 404).length,
      writes: keys.filter((line) => line.method === 'PUT' && [201, 204].includes(Number(line.status))).length,
    };
    const { total, outsidePrefix } = data.summary.sccache;
    const reported = {
      hits: total.hits + outsidePrefix.hits,
      misses: total.misses + outsidePrefix.misses,
      writes: total.writes + outsidePrefix.writes,
    };
    console.log(
      `rotation run: nginx ${nginx.length} lines, ${JSON.stringify(expected)}; report ${JSON.stringify(reported)}`,
    );
    expect(reported).toEqual(expected);
    expect(expected.hits + expected.misses).toBeGreaterThan(0);

    // The end-of-run summary: on stdout before the run dir (still the last line), every figure as data.json has it
    // (parsed back and added up), the serve URL at the configured address; the same rows appended as markdown.
    console.log(`rotation run: end-of-run summary\n${stdout}`);
    const printed = stdout.slice(0, stdout.lastIndexOf(runDir));
    const rows = expectSummaryMatchesData(printed, data, {
      runDir,
      exitCode: 0,
      serveUrl: `http://127.0.0.1:8137/runs/${path.basename(runDir)}/`,
    });
    const markdown = readFileSync(summaryFile, 'utf8');
    console.log(`rotation run: GITHUB_STEP_SUMMARY\n${markdown}`);
    expect(markdown.startsWith(EARLIER_STEP), 'the earlier step’s summary was kept').toBe(true);
    expectMarkdownMatchesRows(markdown.slice(EARLIER_STEP.length), printed.split('\n')[0]!, rows);
    rmSync(summaryFile);
  });
});
