import { describe, expect, it } from 'vitest';
import { boxTargets } from '../fleet/index.js';
import {
  readData,
  readRun,
  readSccacheTruth,
  readStoredBytes,
  readUploadTruth,
  useHarnessBox,
} from './harness-helpers.js';

// Skewed clocks (issue 16 item 2), on real BuildKit: kiln's builder runs 5 s ahead (what buildx reports of it:
// build records, trace spans of buildkitd, the rawjson stream; test/fleet/real/skewed-buildx.ts, as buildkitd is Go
// and libfaketime cannot move it) and the services host (nginx, the Zot-log proxy, its sshd) 5 s behind, through
// libfaketime. node_exporter keeps the true time, so kiln's node clock and its builder's disagree, which only the
// build records reveal. The figures must still equal the truth: upload bytes from the proxy's record, cache counts
// from nginx's own log, both put back on the true clock by the offset this test set (never by the product's
// estimate), and every target where the workstation saw it run.

const BUILDER_AHEAD_S = 5;
const SERVICES_BEHIND_S = -5;

const { box, runHarness } = useHarnessBox({
  fleet: {
    clockOffsetSeconds: { builders: { kiln: BUILDER_AHEAD_S }, services: SERVICES_BEHIND_S },
  },
  rootName: 'harness-clocks',
  sampleIntervalMs: 500,
});

describe('a warm run with kiln’s builder 5 s ahead and the log host 5 s behind', () => {
  it('measures both offsets, places every target where it ran, and its bytes and cache counts equal the truth', async () => {
    const { fleet } = box();
    const runDir = await runHarness('skewed', ['warm', '--fleet', fleet.fleetPath]);
    const run = readRun(runDir);
    const data = readData(runDir);

    // The log host's clock, read over ssh before and after the run.
    const logHost = (run.clocks ?? []).filter((reading) => reading.role === 'log host');
    expect(logHost.map((reading) => reading.phase).sort()).toEqual(['after', 'before']);
    for (const reading of logHost)
      expect(
        Math.abs(reading.offsetMs! - SERVICES_BEHIND_S * 1000),
        JSON.stringify(reading),
      ).toBeLessThanOrEqual(reading.uncertaintyMs! + 20);
    // kiln's builder, from its records: the true offset inside the bound, and the bound well under the skew.
    const kiln = run.builderClocks?.find((clock) => clock.node === 'kiln');
    console.log(`builder clocks: ${JSON.stringify(run.builderClocks)}`);
    expect(kiln?.source).toBe('build records');
    expect(Math.abs(kiln!.offsetMs - BUILDER_AHEAD_S * 1000)).toBeLessThanOrEqual(kiln!.uncertaintyMs);
    // The skew is measured, not guessed: the bound rules out a builder on the true clock. (The bound widens with the
    // host's load, so no fixed width is asked of it.)
    expect(kiln!.offsetMs - kiln!.uncertaintyMs).toBeGreaterThan(0);
    // The other builders share their node's true clock: node_exporter's reading stands.
    for (const clock of run.builderClocks ?? [])
      if (clock.node !== 'kiln') {
        expect(clock.source, clock.node).toBe('node clock');
        expect(Math.abs(clock.offsetMs), clock.node).toBeLessThanOrEqual(clock.uncertaintyMs + 5);
      }
    const loud = data.summary.warnings.filter((warning) => warning.level === 'loud').map((w) => w.message);
    expect(
      loud.some((m) => /^clock of log host .* is \d\.\d\d s behind this workstation .*by ssh date/.test(m)),
      loud.join('\n'),
    ).toBe(true);
    expect(
      loud.some((m) => /^builder on kiln: its build records put its clock \d\.\d\d s ahead/.test(m)),
      loud.join('\n'),
    ).toBe(true);

    // Every target where the workstation saw its bake run: on kiln's raw clock its trace would end 5 s late.
    for (const summary of data.summary.targets) {
      const outcome = run.targets[summary.target]!;
      expect(outcome.status).toBe('ok');
      if (outcome.status !== 'ok') continue;
      const line = `${summary.target} on ${summary.node}: data.json ${summary.startMs}–${summary.endMs}, bake ${outcome.startedAtMs}–${outcome.finishedAtMs}`;
      expect(summary.startMs!, line).toBeGreaterThanOrEqual(outcome.startedAtMs);
      expect(summary.endMs!, line).toBeLessThanOrEqual(outcome.finishedAtMs);
    }

    // Per-target upload bytes: the proxy's record, attributed on the true clock.
    const truth = readUploadTruth(fleet, run, SERVICES_BEHIND_S * 1000);
    expect([...truth.keys()].sort()).toEqual([...boxTargets].sort());
    console.log(
      `upload bytes per target, report / proxy:\n  ${data.summary.targets.map((summary) => `${summary.target} on ${summary.node}: ${summary.uploadBytes} / ${truth.get(summary.target)?.uploadBytes}`).join('\n  ')}`,
    );
    for (const summary of data.summary.targets)
      expect(summary.uploadBytes, summary.target).toBe(truth.get(summary.target)!.uploadBytes);
    const stored = readStoredBytes(fleet, run, SERVICES_BEHIND_S * 1000);
    expect(data.summary.registry.cache.bytesWritten).toBe(stored.cache);
    expect(data.summary.registry.image.bytesWritten).toBe(stored.image);

    // Cache counts: nginx's own log.
    const sccache = readSccacheTruth(fleet, run, SERVICES_BEHIND_S * 1000);
    console.log(
      `sccache truth ${JSON.stringify(sccache)}; report ${JSON.stringify(data.summary.sccache.perNode)}`,
    );
    expect(Object.values(sccache).reduce((sum, c) => sum + c.misses + c.hits, 0)).toBeGreaterThan(0);
    for (const [node, counts] of Object.entries(sccache))
      expect(data.summary.sccache.perNode[node], node).toMatchObject(counts);
  }, 300_000);
});
