import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RUN_CHECKS_VERSION } from '../../../src/artifacts/index.js';

// Copies of the real gfx1201 cold run (fixtures/runs) with one cause changed by hand, for the explanation's test
// and scripts/evaluate-diff-explain.ts. Only run.json and data.json change (the copy's data.json stays trusted:
// its recorded stream sizes do not cover run.json, and it says it was built under the run checks, `runChecks`, as
// one `report` writes today would; rebuilt from the files, the moved targets' traces would fall outside their new
// windows and be left out, as a forged run's must); each shift is worked out below from the fixture's own figures,
// never by the explainer's replay.

export const COLD_FIXTURE = path.resolve('fixtures/runs/gfx1201-cold');

interface Outcome {
  node: string;
  startedAtMs: number;
  finishedAtMs: number;
}
interface RunJson {
  stamp: string;
  targets: Record<string, Outcome>;
  finishedAtMs: number;
}
interface TargetRow {
  target: string;
  startMs: number;
  endMs: number;
  buildSeconds: number;
  totalSeconds: number;
  exportSeconds: number;
  uploadSeconds: number;
}
interface DataJson {
  run: { stamp: string; runChecks?: number };
  summary: { makespanSeconds: number; targets: TargetRow[] };
  timeline: { originMs: number };
}

/** Target → ms to add to its start and to its finish (run.json and data.json alike). */
type Shifts = Record<string, { startMs: number; finishMs: number }>;

function writeCopy({
  dir,
  suffix,
  shifts,
  edit,
}: {
  dir: string;
  suffix: string;
  shifts: Shifts;
  edit?: (row: TargetRow) => void;
}): string {
  cpSync(COLD_FIXTURE, dir, { recursive: true });
  const run = JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')) as RunJson;
  const data = JSON.parse(readFileSync(path.join(dir, 'data.json'), 'utf8')) as DataJson;
  run.stamp = data.run.stamp = `${run.stamp}-${suffix}`;
  data.run.runChecks = RUN_CHECKS_VERSION;
  for (const [target, shift] of Object.entries(shifts)) {
    run.targets[target]!.startedAtMs += shift.startMs;
    run.targets[target]!.finishedAtMs += shift.finishMs;
    const row = data.summary.targets.find((t) => t.target === target)!;
    [row.startMs, row.endMs] = [row.startMs + shift.startMs, row.endMs + shift.finishMs];
    edit?.(row);
  }
  run.finishedAtMs = Math.max(...Object.values(run.targets).map((t) => t.finishedAtMs));
  const lastEnd = Math.max(...data.summary.targets.map((t) => t.endMs));
  data.summary.makespanSeconds = Math.round(lastEnd - data.timeline.originMs) / 1000;
  writeFileSync(path.join(dir, 'run.json'), JSON.stringify(run, null, 2));
  writeFileSync(path.join(dir, 'data.json'), JSON.stringify(data));
  return dir;
}

/** The cold run itself, its stored data.json trusted as the copies' are (the side they are compared with). */
export function writeUnchangedCopy(dir: string): string {
  return writeCopy({ dir, suffix: 'as-recorded', shifts: {} });
}

/**
 * triton-wheel's build 10 s longer: it finishes 10 s later on strix, and vllm-wheel (after it on strix, and
 * waiting for it) starts and finishes 10 s later; nothing else waits for either.
 */
export function writeSlowerBuildCopy(dir: string, slowerMs = 10_000): string {
  return writeCopy({
    dir,
    suffix: 'triton-slower',
    shifts: {
      'triton-wheel': { startMs: 0, finishMs: slowerMs },
      'vllm-wheel': { startMs: slowerMs, finishMs: slowerMs },
    },
    edit: (row) => {
      if (row.target !== 'triton-wheel') return;
      row.buildSeconds += slowerMs / 1000;
      row.totalSeconds += slowerMs / 1000;
    },
  });
}

/**
 * kiln uploads slower, by the factor that makes its last target finish `lateSeconds` after the run's makespan (so
 * the change moves the makespan whatever the recording: a kiln that finishes early would hide a halving). Each of
 * its targets (one after another on kiln; no target waits for any of them, they are wheels) takes its upload
 * seconds × factor, so each starts later by the uploads added before it and finishes later by those plus its own.
 */
export function writeSlowerUploadCopy(
  dir: string,
  { node = 'kiln', lateSeconds = 10 }: { node?: string; lateSeconds?: number } = {},
): { dir: string; factor: number } {
  const run = JSON.parse(readFileSync(path.join(COLD_FIXTURE, 'run.json'), 'utf8')) as RunJson;
  const data = JSON.parse(readFileSync(path.join(COLD_FIXTURE, 'data.json'), 'utf8')) as DataJson;
  const names = Object.entries(run.targets)
    .filter(([, t]) => t.node === node)
    .sort(([, x], [, y]) => x.startedAtMs - y.startedAtMs)
    .map(([name]) => name);
  const rows = names.map((name) => data.summary.targets.find((t) => t.target === name)!);
  const uploadsMs = rows.reduce((sum, row) => sum + row.uploadSeconds * 1000, 0);
  const lastEndMs = Math.max(...data.summary.targets.map((t) => t.endMs));
  const nodeEndMs = Math.max(...rows.map((row) => row.endMs));
  const factor = 1 + (lastEndMs + lateSeconds * 1000 - nodeEndMs) / uploadsMs;
  const shifts: Shifts = {};
  let added = 0;
  for (const row of rows) {
    const extra = row.uploadSeconds * 1000 * (factor - 1);
    shifts[row.target] = { startMs: added, finishMs: added + extra };
    added += extra;
  }
  writeCopy({
    dir,
    suffix: `${node}-upload-slower`,
    shifts,
    edit: (row) => {
      const extra = row.uploadSeconds * (factor - 1);
      row.totalSeconds += extra;
      row.exportSeconds += extra;
      row.uploadSeconds *= factor;
    },
  });
  return { dir, factor };
}
