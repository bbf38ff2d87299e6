import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Plan, type RunFile, RunFileSchema } from '../../../src/artifacts/index.js';
import { parsePlanFile } from '../../../src/artifacts/plan-file.js';
import { parseBuildkitTrace, type TraceExtent } from '../../../src/collect/index.js';
import { findDigestMismatch } from '../../../src/run-dir/find-digest-mismatch.js';
import { findPlanMismatch } from '../../../src/run-dir/find-plan-mismatch.js';
import {
  findTraceImplausibility,
  MEASURED_SLACK_MS,
  UNMEASURED_SLACK_MS,
} from '../../../src/run-dir/find-trace-implausibility.js';

// The pure trust checks of issue 35, held to the shipped sample runs (fixtures/runs/, recorded on the fleet in a
// box): every real trace of a run passes its run's checks, and each kind of forgery fails with the file named.

const fixtures = path.resolve(import.meta.dirname, '../../../fixtures/runs');
const readRun = (name: string): RunFile =>
  RunFileSchema.parse(JSON.parse(readFileSync(path.join(fixtures, name, 'run.json'), 'utf8')));
const readPlan = (name: string): Plan =>
  parsePlanFile(JSON.parse(readFileSync(path.join(fixtures, name, 'plan.json'), 'utf8')), 'plan.json');
const extentOf = (run: string, target: string): TraceExtent =>
  parseBuildkitTrace(readFileSync(path.join(fixtures, run, `trace-${target}.json`), 'utf8'), {
    source: `trace-${target}.json`,
    target,
  }).extent;
const warm = readRun('gfx1201-warm');
const NOW = warm.finishedAtMs! + 3_600_000;

describe('findTraceImplausibility', () => {
  it.each(['gfx1201-warm', 'gfx1201-cold'])('passes every real trace of %s', (runName) => {
    const run = readRun(runName);
    for (const name of readdirSync(path.join(fixtures, runName)).filter((n) => /^trace-.*\.json$/.test(n))) {
      const target = name.slice('trace-'.length, -'.json'.length);
      expect(
        findTraceImplausibility({ name, target, extent: extentOf(runName, target), run, nowMs: NOW }),
      ).toEqual([]);
    }
  });

  it("refuses the cold run's trace of the same target in the warm run", () => {
    // The warm run as an older run.json without trace IDs (those would refuse it first, below), so the window decides.
    const [builder, client] = findTraceImplausibility({
      name: 'trace-pytorch.json',
      target: 'pytorch',
      extent: extentOf('gfx1201-cold', 'pytorch'),
      run: { ...warm, files: undefined },
      nowMs: NOW,
    });
    // Worked out here from the raw files: the cold trace's first span start and last span end (Jaeger µs) of
    // buildkitd's spans and of buildx's own, the warm run's pytorch window and strix's measured offset as run.json
    // holds them.
    const traces = (
      JSON.parse(readFileSync(path.join(fixtures, 'gfx1201-cold', 'trace-pytorch.json'), 'utf8')) as {
        data: {
          spans: { startTime: number; duration: number; processID: string }[];
          processes: Record<string, { serviceName: string }>;
        }[];
      }
    ).data;
    const spansOf = (buildx: boolean) =>
      traces.flatMap((trace) =>
        trace.spans.filter((span) => (trace.processes[span.processID]?.serviceName === 'buildx') === buildx),
      );
    const iso = (ms: number) => new Date(ms).toISOString();
    const outcome = warm.targets.pytorch!;
    if (outcome.status !== 'ok') throw new Error('the warm sample’s pytorch is ok');
    const offset = warm.builderClocks!.find((clock) => clock.node === outcome.node)!.offsetMs;
    const extent = (spans: { startTime: number; duration: number }[], shiftMs: number) => [
      iso(Math.min(...spans.map((span) => span.startTime)) / 1000 - shiftMs),
      iso(Math.max(...spans.map((span) => span.startTime + span.duration)) / 1000 - shiftMs),
    ];
    const window = `outside pytorch's build on ${outcome.node} (${iso(outcome.startedAtMs)} → ${iso(outcome.finishedAtMs)}, allowing `;
    // buildkitd's spans as the builder's clock dated them, moved onto the workstation's by the offset.
    const [from, to] = extent(spansOf(false), offset);
    expect(builder).toContain(`trace-pytorch.json: its spans run from ${from} to ${to}, ${window}`);
    expect(builder).toContain(
      ` either side, after the measured clock offset of ${outcome.node} (${(offset / 1000).toFixed(3)} s))`,
    );
    // buildx's own spans, on the workstation's clock already.
    const [clientFrom, clientTo] = extent(spansOf(true), 0);
    expect(spansOf(true).length).toBeGreaterThan(0);
    expect(client).toContain(
      `trace-pytorch.json: its buildx spans run from ${clientFrom} to ${clientTo}, ${window}2 s either side, on this workstation's clock)`,
    );
  });

  it('moves only the builder’s spans by its clock offset: buildx’s own are on this workstation’s clock', () => {
    // A builder 5 s ahead (its offset measured from its records): BuildKit's spans are 5 s late, buildx's are not.
    const ahead: RunFile = {
      ...warm,
      builderClocks: [
        { node: 'strix', offsetMs: 5_000, uncertaintyMs: 5, source: 'build records', records: 1 },
      ],
    };
    // The warm sample's trace as that builder would have written it: buildkitd's spans 5 s late (the box's skewed
    // buildx does the same to a real trace: test/fleet/real/skewed-buildx.ts).
    const jaeger = JSON.parse(
      readFileSync(path.join(fixtures, 'gfx1201-warm', 'trace-pytorch.json'), 'utf8'),
    ) as {
      data: {
        spans: { processID: string; startTime: number }[];
        processes: Record<string, { serviceName: string }>;
      }[];
    };
    for (const trace of jaeger.data)
      for (const span of trace.spans)
        if (trace.processes[span.processID]?.serviceName === 'buildkitd') span.startTime += 5_000_000;
    const skewed = parseBuildkitTrace(JSON.stringify(jaeger), {
      source: 'trace-pytorch.json',
      target: 'pytorch',
    }).extent;
    expect(skewed.startMs).toBeCloseTo(own.startMs! + 5_000, 3);
    expect(check(skewed, ahead)).toEqual([]);
    // A file whose buildx spans moved with the rest was not made by this workstation's buildx during the build.
    const allMoved = {
      ...skewed,
      clientStartMs: own.clientStartMs! + 5_000,
      clientEndMs: own.clientEndMs! + 5_000,
    };
    expect(check(allMoved, ahead)).toEqual([
      expect.stringMatching(/^trace-pytorch\.json: its buildx spans run from/),
    ]);
  });

  const own = extentOf('gfx1201-warm', 'pytorch');
  const shifted = (ms: number): TraceExtent => ({
    ...own,
    startMs: own.startMs! + ms,
    endMs: own.endMs! + ms,
  });
  const check = (extent: TraceExtent, run: RunFile = warm) =>
    findTraceImplausibility({ name: 'trace-pytorch.json', target: 'pytorch', extent, run, nowMs: NOW });

  it('allows the measured offset and its uncertainty, not a second more', () => {
    // strix: builder clock +0.2 ms ± 5 ms; the trace ends 5 ms before the bake exits.
    const room = warm.targets.pytorch!.status === 'ok' ? warm.targets.pytorch!.finishedAtMs - own.endMs! : 0;
    const limit = room + 5 + MEASURED_SLACK_MS;
    expect(check(shifted(limit - 1))).toEqual([]);
    expect(check(shifted(limit + 1000))).toHaveLength(1);
  });

  it('allows 2 minutes either side when no clock was measured', () => {
    const unmeasured: RunFile = { ...warm, builderClocks: undefined, clocks: undefined };
    expect(check(shifted(UNMEASURED_SLACK_MS - 5_000), unmeasured)).toEqual([]);
    expect(check(shifted(UNMEASURED_SLACK_MS + 5_000), unmeasured)[0]).toMatch(
      /allowing 120 s either side \(no clock offset measured for strix\)/,
    );
  });

  it('gives a cancelled build’s record 2 minutes past the stop to close, on that side only', () => {
    const outcome = warm.targets.pytorch!;
    if (outcome.status !== 'ok') throw new Error('the warm sample’s pytorch is ok');
    const interrupted: RunFile = {
      ...warm,
      targets: { ...warm.targets, pytorch: { ...outcome, status: 'interrupted', error: 'SIGINT' } },
    };
    expect(check(shifted(60_000), interrupted)).toEqual([]);
    expect(check(shifted(60_000))).toHaveLength(1);
    expect(check(shifted(-60_000), interrupted)).toHaveLength(1);
  });

  it.each([
    ['1970', -1_796_537_000_000],
    ['2099', 2_270_000_000_000],
  ])('refuses spans dated %s', (year, ms) => {
    expect(check(shifted(ms))[0]).toMatch(
      new RegExp(`^trace-pytorch\\.json: its spans run from ${year === '1970' ? '1970' : '2098'}-`),
    );
  });

  it('refuses spans that end before they start', () => {
    expect(check({ ...own, negativeSpans: 3, firstNegative: 'exporting, -1.000 ms' })).toEqual([
      "trace-pytorch.json: 3 spans end before it starts (first: exporting, -1.000 ms), which BuildKit never writes: the file was edited; it is left out and pytorch's build/total/upload figures are unknown",
    ]);
  });

  it('refuses trace IDs other than those run.json recorded, and only when it recorded some', () => {
    const recorded = (traceIds: string[]): RunFile => ({
      ...warm,
      files: { 'trace-pytorch.json': { sizeBytes: 1, sha256: 'a'.repeat(64), traceIds } },
    });
    // The trace's own traceID (raw JSON), which the harness recorded in run.json when it saved the file.
    const raw = JSON.parse(
      readFileSync(path.join(fixtures, 'gfx1201-warm', 'trace-pytorch.json'), 'utf8'),
    ) as { data: { traceID: string }[] };
    const traceIds = raw.data.map((trace) => trace.traceID);
    expect(own.traceIds).toEqual(traceIds);
    expect(warm.files?.['trace-pytorch.json']?.traceIds).toEqual(traceIds);
    expect(check(own, recorded(traceIds))).toEqual([]);
    expect(check(own, recorded(['29145f2715f3754faf5e3deccd88d66f']))[0]).toMatch(
      new RegExp(
        `^trace-pytorch\\.json: trace ID ${traceIds[0]}, but run\\.json recorded 29145f2715f3754faf5e3deccd88d66f`,
      ),
    );
    expect(check(own, recorded([]))).toEqual([]);
  });

  it('checks nothing of the window without run.json', () => {
    const extent = shifted(-1_796_537_000_000);
    expect(
      findTraceImplausibility({
        name: 'trace-pytorch.json',
        target: 'pytorch',
        extent,
        run: undefined,
        nowMs: NOW,
      }),
    ).toEqual([]);
  });
});

describe('findDigestMismatch', () => {
  const bytes = Buffer.from('{"a":1}\n');
  const sha = createHash('sha256').update(bytes).digest('hex');
  const recorded = { sizeBytes: bytes.length, sha256: sha };
  it('is silent for the file as written, and for an unreadable file (its reader says so)', () => {
    expect(
      findDigestMismatch('x.jsonl', recorded, { state: 'read', sizeBytes: bytes.length, sha256: sha }),
    ).toBeUndefined();
    expect(findDigestMismatch('x.jsonl', recorded, { state: 'unreadable', why: 'EACCES' })).toBeUndefined();
  });
  it('names a same-size change, a resized file and an absent one', () => {
    const other = createHash('sha256').update('{"a":2}\n').digest('hex');
    expect(findDigestMismatch('x.jsonl', recorded, { state: 'read', sizeBytes: 8, sha256: other })).toBe(
      `x.jsonl: sha256 ${other.slice(0, 12)}… (same size) is not the 8-byte file run.json recorded (sha256 ${sha.slice(0, 12)}…): the file was changed after the run; its figures are marked partial`,
    );
    expect(
      findDigestMismatch('x.jsonl', recorded, { state: 'read', sizeBytes: 9000, sha256: other }),
    ).toMatch(/\(9,000 bytes\) is not the 8-byte file/);
    expect(findDigestMismatch('x.jsonl', recorded, { state: 'absent' })).toMatch(
      /^x\.jsonl: absent, but the run wrote the 8-byte file/,
    );
  });
});

describe('findPlanMismatch', () => {
  const plan = readPlan('gfx1201-warm');
  // The sample's run.json holds plan.json's digest, which decides first (last case); without it, an older run.
  const older: RunFile = { ...warm, files: undefined };
  it('accepts the run’s own plan (an older run: same targets, same strategy)', () => {
    expect(findPlanMismatch({ run: older, plan, digest: undefined })).toBeUndefined();
  });
  it('refuses a plan of other targets, naming what differs', () => {
    const other = {
      ...plan,
      targets: Object.fromEntries(Object.entries(plan.targets).map(([t, v]) => [`x-${t}`, v])),
    };
    expect(findPlanMismatch({ run: older, plan: other, digest: undefined })).toMatch(
      /^plan\.json: not the plan this run used \(it lacks aiter-wheel, apex-wheel, bitsandbytes-wheel, deepspeed-wheel and 9 more, which the run built; it plans x-aiter-wheel, /,
    );
  });
  it('refuses a plan of another strategy', () => {
    expect(findPlanMismatch({ run: { ...older, strategy: 'lpt' }, plan, digest: undefined })).toMatch(
      /^plan\.json: strategy .*, but run\.json says the run was planned with lpt/,
    );
  });
  it('trusts the digest where run.json recorded one: absent or changed is not the run’s plan', () => {
    const signed: RunFile = { ...warm, files: { 'plan.json': { sizeBytes: 1, sha256: 'a'.repeat(64) } } };
    expect(findPlanMismatch({ run: signed, plan: undefined, digest: 'plan.json: absent, …' })).toMatch(
      /^plan\.json: absent, but run\.json recorded the plan this run used/,
    );
    expect(
      findPlanMismatch({
        run: signed,
        plan,
        digest: 'plan.json: sha256 … : the file was changed after the run; its figures are marked partial',
      }),
    ).toBe(
      'plan.json: sha256 … : the file was changed after the run; not the plan this run used; planned figures are left out',
    );
    expect(findPlanMismatch({ run: signed, plan, digest: undefined })).toBeUndefined();
  });
});
