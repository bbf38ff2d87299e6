// `npm run bench:startup` (issue 36 item 10): what a user waits for, side by side in one run with `node -e 0`:
// `--help`, `plan` on the shipped fleet, `report` on a copy of fixtures/runs/gfx1201-warm, `report` on a run dir
// holding a 300 MB zot.jsonl against jq on the same file, and `plan` at 1,000 targets × 64 nodes with a forecast
// band (bench/write-large-fleet.ts). Every command is spawned as a user types it; rounds are interleaved, so a busy
// machine slows every row alike, and each row reports its median wall time and CPU time (user + sys, from bash's
// `time`), with ratios to `node -e 0`. BENCH_BASELINE_CLI=<another checkout's bin/rocm-perf.js> runs that build in
// the same rounds, for a before/after in one run. BENCH_ROUNDS (default 7) rounds of the short commands, 3 of
// the large ones; BENCH_LARGE=0 skips the 300 MB log. Exits 1 if a goal is missed on wall time.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFixtureRun } from '../scripts/make-fixture-run.js';
import { generateZotLog } from './generate-logs.js';
import { writeLargeFleet } from './write-large-fleet.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const LARGE_ROUNDS = Math.max(1, Math.min(ROUNDS, 3));
const SEED = Number(process.env.BENCH_SEED ?? 20261202);
const baseline = process.env.BENCH_BASELINE_CLI ? path.resolve(process.env.BENCH_BASELINE_CLI) : undefined;
const builds = [
  { label: 'this build', bin: path.join(repoRoot, 'bin/rocm-perf.js') },
  ...(baseline ? [{ label: 'baseline', bin: baseline }] : []),
];

interface Timing {
  wallMs: number;
  cpuMs: number;
}

const shellQuote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

/** One spawn under bash's `time` (wall, user, sys of the command alone); stdout is checked, then dropped. */
function timeOnce(argv: readonly string[], check?: (stdout: string) => boolean): Timing {
  const script = `TIMEFORMAT="%R %U %S"; time (${argv.map(shellQuote).join(' ')} > "$OUT" 2>/dev/null)`;
  const out = path.join(work, 'stdout.txt');
  const run = spawnSync('bash', ['-c', script], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, OUT: out },
  });
  const [real, user, sys] = run.stderr.trim().split(/\s+/).slice(-3).map(Number);
  if (run.status !== 0 && !(argv.includes('report') && run.status === 1))
    throw new Error(`${argv.join(' ')} exited ${run.status}: ${run.stderr}`);
  if (check && !check(spawnSync('cat', [out], { encoding: 'utf8' }).stdout))
    throw new Error(`${argv.join(' ')}: unexpected output (${out})`);
  return { wallMs: real! * 1000, cpuMs: (user! + sys!) * 1000 };
}

interface Row {
  name: string;
  argv: (bin: string) => string[] | undefined;
  rounds: number;
  check?: (stdout: string) => boolean;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function measure(rows: readonly Row[]): Map<string, Timing> {
  const samples = new Map<string, Timing[]>();
  const most = Math.max(...rows.map((row) => row.rounds));
  for (let round = 0; round < most; round++)
    for (const row of rows)
      for (const build of builds) {
        if (round >= row.rounds) continue;
        const argv = row.argv(build.bin);
        if (argv === undefined) continue;
        const key = `${row.name}|${build.label}`;
        if (!samples.has(key)) samples.set(key, []);
        samples.get(key)!.push(timeOnce(argv, row.check));
      }
  return new Map(
    [...samples].map(([key, list]) => [
      key,
      { wallMs: median(list.map((t) => t.wallMs)), cpuMs: median(list.map((t) => t.cpuMs)) },
    ]),
  );
}

const work = mkdtempSync(path.join(tmpdir(), 'rocm-perf-bench-startup-'));
const failures: string[] = [];
try {
  console.log(
    `bench:startup on ${process.version}, ${ROUNDS} rounds (${LARGE_ROUNDS} for the large rows), load average ${loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}`,
  );
  const warm = path.join(work, 'gfx1201-warm');
  cpSync(path.join(repoRoot, 'fixtures/runs/gfx1201-warm'), warm, { recursive: true });
  const largeFleet = writeLargeFleet({
    dir: path.join(work, 'large'),
    targets: 1000,
    nodes: 64,
    seed: SEED + 4,
  });
  const large = process.env.BENCH_LARGE !== '0';
  const zotRun = path.join(work, 'zot-run');
  if (large) {
    await writeFixtureRun({
      dir: zotRun,
      stamp: '20260314T080000Z',
      harness: 'warm',
      nodeCount: 5,
      durationSeconds: 8 * 3600,
      startMs: Date.UTC(2026, 2, 14, 8),
    });
    generateZotLog({
      path: path.join(zotRun, 'zot.jsonl'),
      sizeBytes: 300e6,
      startMs: Date.UTC(2026, 2, 14, 8),
      spanMs: 8 * 3_600_000,
      layout: 'slog',
      seed: 1,
    });
  }
  const node = process.execPath;
  const rows: Row[] = [
    {
      name: 'node -e 0',
      argv: (bin) => (bin === builds[0]!.bin ? [node, '-e', '0'] : undefined),
      rounds: ROUNDS,
    },
    { name: '--help', argv: (bin) => [node, bin, '--help'], rounds: ROUNDS },
    { name: 'plan (shipped fleet)', argv: (bin) => [node, bin, 'plan'], rounds: ROUNDS },
    { name: 'report (warm sample)', argv: (bin) => [node, bin, 'report', warm], rounds: ROUNDS },
    {
      name: 'plan (1,000 × 64, band)',
      argv: (bin) => [node, bin, 'plan', '--fleet', largeFleet],
      rounds: LARGE_ROUNDS,
      check: (stdout) => /^forecast +p10 /m.test(stdout),
    },
    ...(large
      ? [
          {
            name: 'report (300 MB zot.jsonl)',
            argv: (bin: string) => [node, bin, 'report', zotRun],
            rounds: LARGE_ROUNDS,
          },
          {
            name: 'jq on that zot.jsonl',
            argv: (bin: string) =>
              bin === builds[0]!.bin
                ? ['jq', '-c', 'select(.message=="HTTP API")', path.join(zotRun, 'zot.jsonl')]
                : undefined,
            rounds: LARGE_ROUNDS,
          },
        ]
      : []),
  ];
  const results = measure(rows);
  const nodeZero = results.get('node -e 0|this build')!;
  const header = ['command', ...builds.flatMap((b) => [`${b.label} wall`, '÷ node', 'cpu', '÷ node'])];
  const table = [header];
  for (const row of rows) {
    const cells = builds.flatMap((build) => {
      const t = results.get(`${row.name}|${build.label}`);
      if (!t) return ['', '', '', ''];
      return [
        `${(t.wallMs / 1000).toFixed(3)} s`,
        `${(t.wallMs / nodeZero.wallMs).toFixed(2)}×`,
        `${(t.cpuMs / 1000).toFixed(3)} s`,
        `${(t.cpuMs / nodeZero.cpuMs).toFixed(2)}×`,
      ];
    });
    table.push([row.name, ...cells]);
  }
  const widths = header.map((_, c) => Math.max(...table.map((r) => r[c]!.length)));
  for (const r of table)
    console.log(
      r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '),
    );
  const wall = (name: string) => results.get(`${name}|this build`)!.wallMs;
  const goal = (label: string, ok: boolean) => {
    console.log(`${ok ? 'PASS' : 'MISS'}  ${label}`);
    if (!ok) failures.push(label);
  };
  console.log('');
  goal(
    `--help ≤ 1.8× node -e 0 (${(wall('--help') / nodeZero.wallMs).toFixed(2)}×)`,
    wall('--help') <= 1.8 * nodeZero.wallMs,
  );
  goal(
    `plan ≤ 3.5× node -e 0 (${(wall('plan (shipped fleet)') / nodeZero.wallMs).toFixed(2)}×)`,
    wall('plan (shipped fleet)') <= 3.5 * nodeZero.wallMs,
  );
  goal(
    `report (warm sample) ≤ 7× node -e 0 (${(wall('report (warm sample)') / nodeZero.wallMs).toFixed(2)}×)`,
    wall('report (warm sample)') <= 7 * nodeZero.wallMs,
  );
  goal(
    `plan 1,000 × 64 with a band ≤ 1 s (${(wall('plan (1,000 × 64, band)') / 1000).toFixed(2)} s)`,
    wall('plan (1,000 × 64, band)') <= 1000,
  );
  if (large) {
    const size = statSync(path.join(zotRun, 'zot.jsonl')).size;
    const times = wall('jq on that zot.jsonl') / wall('report (300 MB zot.jsonl)');
    goal(
      `report on ${(size / 1e6).toFixed(0)} MB zot.jsonl ≥ 6× faster than jq (${times.toFixed(1)}×)`,
      times >= 6,
    );
  }
  console.log(
    `load average at the end: ${loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (failures.length > 0) process.exitCode = 1;
