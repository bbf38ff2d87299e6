import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildLogHostCheckCommand } from '../../src/run/cache-logs/remote-log-files.js';
import { bundleFleetScript } from '../fleet/bundle-fleet-script.js';
import { startClockKeeper, toSkewedClockEnv } from '../fleet/skewed-clock.js';

// The box's skewed clocks (test/fleet/skewed-clock.ts) against the libfaketime 0.9.10 failure CI met: pairs leaked
// by killed processes at pids that come round again make a process whose FAKETIME_SHARED went stale exit 1. Here
// the leaks are made on purpose, at about half of the next pids, and the log host's preflight command (its
// `printf x | split --filter=cat`) runs under bash as sshd would run it. Without the keeper it fails; with it, never.

const leaked: string[] = [];
const shmBefore = new Set(readdirSync('/dev/shm'));
afterEach(() => {
  for (const file of leaked.splice(0)) rmSync(file, { force: true });
  // The pairs the runs without a keeper made and left (their makers exited 1): every new one whose pid is gone.
  for (const name of readdirSync('/dev/shm')) {
    const pid = /faketime_(?:sem|shm)_(\d+)$/.exec(name)?.[1];
    if (pid !== undefined && !shmBefore.has(name) && !existsSync(`/proc/${pid}`))
      rmSync(`/dev/shm/${name}`, { force: true });
  }
});

/** libfaketime's environment as the box had it before the keeper: every process tree makes its own pair. */
function toBareSkewedEnv(): Record<string, string> {
  const { FAKETIME_SHARED: _shared, ...env } = toSkewedClockEnv(-5, 'unused');
  return env;
}

/** Leaves a pair like a killed process's at about half of the next `span` pids (they wrap at pid_max). */
async function leakPairsAhead(span: number): Promise<void> {
  const victim = spawn('sleep', ['30'], { env: { ...process.env, ...toBareSkewedEnv() } });
  const pid = victim.pid!;
  const files = [`/dev/shm/sem.faketime_sem_${pid}`, `/dev/shm/faketime_shm_${pid}`];
  while (!files.every((file) => existsSync(file))) await new Promise((resolve) => setTimeout(resolve, 10));
  victim.kill('SIGKILL');
  await new Promise((resolve) => victim.once('exit', resolve));
  leaked.push(...files);
  const pidMax = Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8'));
  for (let step = 1; step <= span; step++) {
    if (Math.random() < 0.5) continue;
    const next = ((pid + step - 300) % (pidMax - 300)) + 300;
    const pair = [`/dev/shm/sem.faketime_sem_${next}`, `/dev/shm/faketime_shm_${next}`];
    if (pair.some((file) => existsSync(file))) continue;
    copyFileSync(files[0]!, pair[0]!);
    copyFileSync(files[1]!, pair[1]!);
    leaked.push(...pair);
  }
}

function runCheckCommand(env: Record<string, string>, times: number): string[] {
  const failures: string[] = [];
  for (let i = 0; i < times; i++) {
    const result = spawnSync('bash', ['-c', buildLogHostCheckCommand('/etc/hostname')], {
      encoding: 'utf8',
      env: { ...process.env, ...env },
    });
    if (result.status !== 0) failures.push(result.stderr.trim());
  }
  return failures;
}

describe('skewed clocks in the box', () => {
  it('without a keeper, libfaketime’s leaked pairs fail the log host check; with one, it always passes', async () => {
    await leakPairsAhead(8000);
    const bare = runCheckCommand(toBareSkewedEnv(), 60);
    console.log(`without a keeper: ${bare.length} of 60 failed; first: ${bare[0]}`);
    expect(bare.length).toBeGreaterThan(0);
    // Whichever process of the check met a leaked pair (split, its filter, wc) names libfaketime as the cause.
    for (const failure of bare) expect(failure).toMatch(/libfaketime: In ft_shm_init\(\), sem_open failed/);

    const keeper = await startClockKeeper();
    try {
      const kept = runCheckCommand(toSkewedClockEnv(-5, keeper.shared), 60);
      expect(kept).toEqual([]);
      // Still skewed: bash's `date` under the keeper's env reads 5 s behind.
      const skewedNow = Number(
        spawnSync('date', ['+%s'], {
          encoding: 'utf8',
          env: { ...process.env, ...toSkewedClockEnv(-5, keeper.shared) },
        }).stdout,
      );
      expect(Math.round(Date.now() / 1000 - skewedNow)).toBeGreaterThanOrEqual(4);
    } finally {
      keeper.stop();
    }
    const pid = keeper.shared.match(/faketime_sem_(\d+)/)![1];
    expect(readdirSync('/dev/shm').filter((name) => name.endsWith(`_${pid}`))).toEqual([]);
  });
});

// A builder's skewed clock on real BuildKit is what test/fleet/real/skewed-buildx.ts does to real buildx output.
// Held here to captured real output (test/fixtures/buildkit-real/, buildx v0.36.1 with BuildKit v0.32.2), played
// by a stand-in for the pinned binary that prints a fixture; the times expected are computed here from the file.
describe('a builder 5 s ahead, through the skewed buildx', () => {
  const fixtures = path.resolve(import.meta.dirname, '../fixtures/buildkit-real');
  const dir = mkdtempSync(path.join(tmpdir(), 'skewed-buildx-'));
  const fake = path.join(dir, 'buildx');
  writeFileSync(fake, '#!/bin/sh\ncat "$OUT"; cat "$ERR" >&2; exit "${CODE:-0}"\n');
  chmodSync(fake, 0o755);
  const argv = bundleFleetScript(
    path.resolve(import.meta.dirname, '../fleet/real/skewed-buildx.ts'),
    path.join(dir, 'skewed-buildx.mjs'),
  );
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = (args: string[], files: { out?: string; err?: string; code?: number }) =>
    spawnSync(process.execPath, [...argv, fake, '{"kiln":5}', 'buildx', ...args], {
      encoding: 'utf8',
      env: {
        ...process.env,
        OUT: files.out ? path.join(fixtures, files.out) : '/dev/null',
        ERR: files.err ? path.join(fixtures, files.err) : '/dev/null',
        CODE: String(files.code ?? 0),
      },
    });
  type Trace = {
    data: {
      spans: { processID: string; startTime: number; logs?: { timestamp: number }[] }[];
      processes: Record<string, { serviceName: string }>;
    }[];
  };

  it('moves buildkitd’s spans and their events by 5 s; buildx’s own spans keep the workstation’s clock', () => {
    const file = 'trace-two-targets-linked.jaeger.json';
    const before = JSON.parse(readFileSync(path.join(fixtures, file), 'utf8')) as Trace;
    const after = JSON.parse(
      run(['history', 'trace', '--builder', 'kiln', 'x'], { out: file }).stdout,
    ) as Trace;
    const [trace, moved] = [before.data[0]!, after.data[0]!];
    const services = trace.spans.map((span) => trace.processes[span.processID]!.serviceName);
    expect(new Set(services)).toEqual(new Set(['buildkitd', 'buildx']));
    trace.spans.forEach((span, i) => {
      const shift = services[i] === 'buildkitd' ? 5_000_000 : 0;
      expect(moved.spans[i]!.startTime - span.startTime).toBe(shift);
      span.logs?.forEach((log, j) => expect(moved.spans[i]!.logs![j]!.timestamp - log.timestamp).toBe(shift));
    });
  });

  it('moves history inspect’s times by whole seconds, keeping BuildKit’s fraction digits', () => {
    const result = run(['history', 'inspect', '--builder=kiln', '--format', 'json', 'x'], {
      out: 'history-inspect-warm-cached.json',
    });
    const record = JSON.parse(result.stdout) as Record<string, unknown>;
    expect([record.StartedAt, record.CompletedAt]).toEqual([
      '2026-12-06T02:28:43.47212303Z',
      '2026-12-06T02:28:44.016052054Z',
    ]);
  });

  it('moves the rawjson stream’s times but buildx’s own vertices and the zero time; other builders untouched', () => {
    const err = 'rawjson-warm-cached.jsonl';
    type Item = Record<string, string | undefined>;
    const parse = (text: string) =>
      text
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, Item[]>);
    const original = parse(readFileSync(path.join(fixtures, err), 'utf8'));
    const skewed = parse(run(['bake', '--builder', 'kiln', '--progress=rawjson', 'x'], { err }).stderr);
    expect(skewed).toHaveLength(original.length);
    const local = new Set(
      original
        .flatMap((status) => status.vertexes ?? [])
        .filter((vertex) =>
          /^(\[internal\] load local bake definitions|resolving provenance for metadata file)$/.test(
            vertex.name!,
          ),
        )
        .map((vertex) => vertex.digest),
    );
    expect(local.size).toBe(2);
    let moved = 0;
    original.forEach((status, i) => {
      for (const [key, items] of Object.entries(status))
        items.forEach((item, j) => {
          for (const field of ['started', 'completed', 'timestamp']) {
            const time = item[field];
            if (time === undefined) continue;
            const shift = local.has(item.digest ?? item.vertex) || time.startsWith('0001-') ? 0 : 5_000;
            expect(
              Date.parse(skewed[i]![key]![j]![field]!) - Date.parse(time),
              `${key} ${field} ${time}`,
            ).toBe(shift);
            if (shift) moved += 1;
          }
        });
    });
    expect(moved).toBeGreaterThan(100);
    const forge = run(['bake', '--builder', 'forge', '--progress=rawjson', 'x'], { err });
    expect(forge.stderr).toBe(readFileSync(path.join(fixtures, err), 'utf8'));
  });

  it('passes the exit code through', () => {
    expect(run(['history', 'trace', '--builder', 'kiln', 'x'], { code: 3 }).status).toBe(3);
  });
});
