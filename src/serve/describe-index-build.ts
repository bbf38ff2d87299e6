import { escapeHtml } from '../shared/escape-html.js';
import { formatCount, formatDuration } from '../shared/format-units.js';
import type { RunIndexBuild } from './create-run-index-view.js';

// What serve says while its run index loads (docs/history.md, "The first start"): on its console, and to a viewer
// who asks for `/`, trends or /metrics meanwhile (a 503 page that reloads itself). Without an index file (a first
// start, or the file deleted) every run is read and hashed once: minutes over thousands of runs. Pure, but for
// the console printer's clock, which is injected.

/** Below this many folders looked at, or this long, a rate is not yet worth an estimate. */
const ESTIMATE_AFTER = { done: 20, ms: 2000 };

/** `building the run index …: 2,400 of 10,000 runs looked at in 26.31s, about 1m23s left`. */
export function describeIndexBuild(build: RunIndexBuild, nowMs: number): string {
  if (build.total === 0) return 'building the run index: reading its index file and listing the runs root';
  const why = build.fresh
    ? 'no index file yet: every run is read once'
    : 'from its index file: runs it lacks are read';
  const elapsedMs = Math.max(0, nowMs - build.startedAtMs);
  const head = `building the run index (${why}): ${formatCount(build.done)} of ${formatCount(build.total)} runs looked at in ${formatDuration(elapsedMs / 1000)}`;
  if (build.done >= build.total || build.done < ESTIMATE_AFTER.done || elapsedMs < ESTIMATE_AFTER.ms)
    return head;
  const leftSeconds = ((build.total - build.done) * elapsedMs) / build.done / 1000;
  return `${head}, about ${formatDuration(leftSeconds)} left`;
}

/** Seconds a viewer's page waits before asking again. */
export const INDEX_BUILD_RETRY_SECONDS = 5;

/** The page `/` and trends answer (503) while the index loads: where it stands, and it reloads itself. */
export function renderIndexBuildingPage(build: RunIndexBuild, nowMs: number): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="${INDEX_BUILD_RETRY_SECONDS}">
<title>rocm-perf runs: building the run index</title>
</head>
<body>
<h1>rocm-perf runs</h1>
<p>rocm-perf serve is ${escapeHtml(describeIndexBuild(build, nowMs))}.</p>
<p>This page reloads itself every ${INDEX_BUILD_RETRY_SECONDS} seconds and shows the runs once the index is built.
Each run's own page (<code>/runs/&lt;stamp&gt;/</code>) is served meanwhile.</p>
</body>
</html>
`;
}

/** A load of the run index longer than this is reported on the console, then every PROGRESS_EVERY_MS. */
const PROGRESS_AFTER_MS = 5000;
const PROGRESS_EVERY_MS = 10_000;

/**
 * serve's console during a long load of the run index (a first start over thousands of runs): a line 5 s in and
 * every 10 s after, then one when it is built. A load shorter than 5 s (a restart from the index file) prints none.
 */
export function createIndexProgressPrinter({
  print,
  nowMs = () => Date.now(),
}: {
  print: (line: string) => void;
  nowMs?: () => number;
}): (build: RunIndexBuild) => void {
  let printedAtMs: number | undefined;
  return (build) => {
    const now = nowMs();
    if (build.done >= build.total) {
      if (printedAtMs !== undefined)
        print(
          `rocm-perf serve: run index built: ${formatCount(build.total)} runs in ${formatDuration((now - build.startedAtMs) / 1000)}`,
        );
      printedAtMs = undefined;
      return;
    }
    const due =
      printedAtMs === undefined ? build.startedAtMs + PROGRESS_AFTER_MS : printedAtMs + PROGRESS_EVERY_MS;
    if (now < due) return;
    printedAtMs = now;
    print(`rocm-perf serve: ${describeIndexBuild(build, now)}`);
  };
}
