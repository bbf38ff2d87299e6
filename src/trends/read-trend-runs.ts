import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { readRunFile } from '../artifacts/read-run-file.js';
import { loadRunModel, readLane } from '../report/index.js';
import { isRocmPerfError } from '../shared/errors.js';
import { toViewerReason } from '../shared/to-viewer-reason.js';
import { toTrendRun, type TrendRun } from './build-trends.js';

// Run dirs (serve passes the ones it serves) as trend input, for serve's trends page. A live run (run.json says running) is listed
// without reading its streams (trends leave it out anyway); a finished run's summary is cached until a file in
// its dir changes, so a reload of the page costs a readdir and a stat per file.

export interface TrendRunsReader {
  /** `notes` are for the page (a short reason per run left out); `details` carry the paths, for the log. */
  read(
    entries: readonly { stamp: string; dir: string }[],
  ): Promise<{ runs: TrendRun[]; notes: string[]; details: string[] }>;
}

async function signDir(dir: string): Promise<string> {
  const names = (await readdir(dir)).sort();
  const parts = await Promise.all(
    names.map(async (name) => {
      const info = await lstat(path.join(dir, name)).catch(() => undefined);
      return `${name}:${info?.size ?? '-'}:${info?.mtimeMs ?? '-'}`;
    }),
  );
  return parts.join('|');
}

async function readTrendRun(dir: string, nowMs: number): Promise<TrendRun> {
  const runFile = await readRunFile(dir);
  if (runFile?.status === 'running')
    return {
      stamp: path.basename(dir),
      harness: runFile.harness,
      lane: await readLane(dir),
      status: 'running',
      makespanSeconds: null,
      targets: [],
      forecast: null,
    };
  return toTrendRun((await loadRunModel({ dir, nowMs })).model);
}

export function createTrendRunsReader({
  nowMs = () => Date.now(),
}: { nowMs?: () => number } = {}): TrendRunsReader {
  const cache = new Map<string, { signature: string; run: TrendRun }>();
  return {
    async read(entries) {
      const runs: TrendRun[] = [];
      const notes: string[] = [];
      const details: string[] = [];
      for (const entry of entries) {
        try {
          const signature = await signDir(entry.dir);
          const cached = cache.get(entry.dir);
          const run = cached?.signature === signature ? cached.run : await readTrendRun(entry.dir, nowMs());
          cache.set(entry.dir, { signature, run });
          runs.push(run);
        } catch (error) {
          if (!isRocmPerfError(error)) throw error;
          notes.push(`${entry.stamp} left out: ${toViewerReason(error)}`);
          details.push(`${entry.stamp} left out of trends: ${error.message}`);
        }
      }
      return { runs, notes, details };
    },
  };
}
