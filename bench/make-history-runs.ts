import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, ftruncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// A history of run dirs for bench:history: copies of fixtures/runs/gfx1201-cold and gfx1201-warm, one every ~53
// minutes over a year (10,000 runs), a nightly cold per five, with spread lanes (fleet, nightly-aws, box), arches,
// statuses (3 % failed, 1 % interrupted) and a few damaged (one in 200: run.json cut short). Each copy has its own
// run.json and a fresh data.json (the sample's, re-stamped: stamp, times, lane, arch, status, and makespan and build
// seconds scaled by ±15 %), and plan.json. Every other file run.json records (traces, metadata, status streams, the
// logs, samples, cache-debug files: 7–8 MB a run) is a sparse file of its recorded size, and the copy's run.json
// records the size and SHA-256 of those zeros, so each copy passes the run checks as a real run does and
// `loadRunModel` takes its data.json (the first start of serve still reads and hashes every byte, as it would on a
// real history); 10,000 real copies would not fit on a shared disk. Deterministic: run i is the same whatever N, so
// one root grows size by size.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface FileRecord {
  sizeBytes: number;
  sha256: string;
}

const ZERO_CHUNK = Buffer.alloc(1 << 20);

/** SHA-256 of `bytes` zero bytes: what a sparse file of that size reads as. */
function hashZeros(bytes: number): string {
  const hash = createHash('sha256');
  for (let left = bytes; left > 0; left -= ZERO_CHUNK.length)
    hash.update(left >= ZERO_CHUNK.length ? ZERO_CHUNK : ZERO_CHUNK.subarray(0, left));
  return hash.digest('hex');
}

const SAMPLES = ['gfx1201-cold', 'gfx1201-warm'].map((name) => {
  const dir = path.join(repoRoot, 'fixtures/runs', name);
  const run = JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')) as Record<string, unknown> & {
    files: Record<string, FileRecord>;
  };
  // plan.json is copied as it is; every other recorded file becomes zeros of its size.
  const sparse = Object.entries(run.files).filter(([file]) => file !== 'plan.json');
  const copied: Record<string, unknown> = {
    ...run,
    files: {
      ...run.files,
      ...Object.fromEntries(
        sparse.map(([file, record]) => [
          file,
          { sizeBytes: record.sizeBytes, sha256: hashZeros(record.sizeBytes) },
        ]),
      ),
    },
  };
  return {
    run: copied,
    sparse: sparse.map(([file, record]) => ({ file, bytes: record.sizeBytes })),
    data: JSON.parse(readFileSync(path.join(dir, 'data.json'), 'utf8')) as DataLike,
    plan: readFileSync(path.join(dir, 'plan.json')),
  };
});

interface DataLike {
  generatedAtMs: number;
  run: Record<string, unknown> & { startedAtMs: number; finishedAtMs: number | null };
  summary: Record<string, unknown> & {
    makespanSeconds: number | null;
    targets: (Record<string, unknown> & {
      buildSeconds: number | null;
      startMs: number | null;
      endMs: number | null;
    })[];
    streams: Record<string, { present: boolean; bytes: number }>;
  };
}

const FIRST_MS = Date.UTC(2026, 0, 1);
const STEP_MS = Math.round((365 * 86_400_000) / 10_000);
const LANES = [
  'fleet',
  'fleet',
  'fleet',
  'fleet',
  'fleet',
  'fleet',
  'fleet',
  'nightly-aws',
  'nightly-aws',
  'box',
];
const ARCHES = ['gfx1201', 'gfx1201', 'gfx942', 'gfx90a'];

/** A small seeded generator (mulberry32): run i draws from seed i. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function toStamp(ms: number, next: () => number): string {
  const iso = new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const tail = Array.from(
    { length: 6 },
    () => 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(next() * 36)],
  ).join('');
  return `${iso}-${tail}`;
}

function writeSparse(file: string, bytes: number): void {
  const fd = openSync(file, 'w');
  try {
    ftruncateSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
}

/** Writes runs [from, to) under root; returns the newest start time written. */
export function makeHistoryRuns({ root, from, to }: { root: string; from: number; to: number }): {
  newestMs: number;
} {
  mkdirSync(root, { recursive: true });
  let newestMs = 0;
  for (let i = from; i < to; i++) {
    const next = random(20261206 + i);
    const cold = i % 5 === 0;
    const sample = SAMPLES[cold ? 0 : 1]!;
    const startMs = FIRST_MS + i * STEP_MS + Math.floor(next() * 600_000);
    newestMs = Math.max(newestMs, startMs);
    const shift = startMs - (sample.run.startedAtMs as number);
    const stamp = toStamp(startMs, next);
    const lane = LANES[Math.floor(next() * LANES.length)]!;
    const arch = ARCHES[Math.floor(next() * ARCHES.length)]!;
    const roll = next();
    const status = roll < 0.03 ? 'failed' : roll < 0.04 ? 'interrupted' : 'completed';
    const damaged = i % 200 === 7;
    const scale = 0.85 + next() * 0.3;
    const dir = path.join(root, stamp);
    mkdirSync(dir);
    const run = {
      ...sample.run,
      stamp,
      arch,
      status,
      exitCode: status === 'completed' ? 0 : 1,
      startedAtMs: startMs,
      measuredStartedAtMs: (sample.run.measuredStartedAtMs as number) + shift,
      finishedAtMs: (sample.run.finishedAtMs as number) + shift,
    };
    const runText = JSON.stringify(run, null, 2);
    writeFileSync(path.join(dir, 'run.json'), damaged ? runText.slice(0, runText.length >> 1) : runText);
    if (lane !== 'fleet') writeFileSync(path.join(dir, 'lane.txt'), `${lane}\n`);
    writeFileSync(path.join(dir, 'plan.json'), sample.plan);
    const data = sample.data;
    const at = (ms: number | null) => (ms === null ? null : ms + shift);
    const round3 = (x: number | null) => (x === null ? null : Math.round(x * scale * 1000) / 1000);
    const fresh = {
      ...data,
      generatedAtMs: Date.now(),
      run: {
        ...data.run,
        stamp,
        lane,
        arch,
        status,
        startedAtMs: data.run.startedAtMs + shift,
        finishedAtMs: at(data.run.finishedAtMs),
      },
      summary: {
        ...data.summary,
        makespanSeconds: round3(data.summary.makespanSeconds),
        targets: data.summary.targets.map((t) => ({
          ...t,
          buildSeconds: round3(t.buildSeconds),
          startMs: at(t.startMs),
          endMs: at(t.endMs),
        })),
      },
    };
    writeFileSync(path.join(dir, 'data.json'), JSON.stringify(fresh));
    for (const { file, bytes } of sample.sparse) writeSparse(path.join(dir, file), bytes);
  }
  return { newestMs };
}
