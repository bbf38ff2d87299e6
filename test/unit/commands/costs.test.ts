import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseTargetCosts } from '../../../src/config/parse-target-costs.js';
import { createProgram } from '../../../src/program.js';
import { traceFigures } from '../../helpers/sample-run-facts.js';

// `rocm-perf costs` in-process on the shipped sample runs (real BuildKit traces from the fleet in a box) and a copy
// of the shipped fleet.yaml, whose link_mbps are the real fleet's, not the box's: refused unless --allow-other-fleet,
// and then the learning must suggest the box's.

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const WARM_RUN = path.join(repoRoot, 'fixtures/runs/gfx1201-warm');
const COLD_RUN = path.join(repoRoot, 'fixtures/runs/gfx1201-cold');
const stampOf = (runDir: string) =>
  (JSON.parse(readFileSync(path.join(runDir, 'run.json'), 'utf8')) as { stamp: string }).stamp;
/** The report's own figures for a target (data.json: another code path than `costs`). */
const reportedTarget = (runDir: string, target: string) =>
  (
    JSON.parse(readFileSync(path.join(runDir, 'data.json'), 'utf8')) as {
      summary: { targets: { target: string; buildSeconds: number; uploadBytes: number }[] };
    }
  ).summary.targets.find((t) => t.target === target)!;

let dir = '';
let stdout: string[] = [];
let stderr: string[] = [];
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'costs-command-'));
  copyFileSync(path.join(repoRoot, 'fleet.yaml'), path.join(dir, 'fleet.yaml'));
  copyFileSync(path.join(repoRoot, '.builders/target-costs'), path.join(dir, 'target-costs'));
  [stdout, stderr] = [[], []];
  vi.spyOn(console, 'log').mockImplementation((line: string) => void stdout.push(line));
  vi.spyOn(console, 'error').mockImplementation((line: string) => void stderr.push(line));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

// The samples record the box's bake definition (run.json `bake`), not the shipped print's: that check is
// test/unit/costs/costs-bake-definition.test.ts's, so it is waived here.
const costsOn = (fleet: string, ...args: string[]) =>
  createProgram().parseAsync(
    ['costs', '--fleet', fleet, '--costs', path.join(dir, 'target-costs'), '--allow-other-bake', ...args],
    { from: 'user' },
  );
/** On the shipped fleet.yaml, which the box's runs did not run on: the learning mechanics, told to go ahead. */
const costs = (...args: string[]) => costsOn(path.join(dir, 'fleet.yaml'), '--allow-other-fleet', ...args);

interface RecordedNode {
  name: string;
  builder: string;
  address: string;
  linkMbps: number;
  speed: number;
}
const readRunTargets = (runDir: string) =>
  (
    JSON.parse(readFileSync(path.join(runDir, 'run.json'), 'utf8')) as {
      targets: Record<string, { node: string }>;
    }
  ).targets;
const recordedNodes = (runDir: string) =>
  (JSON.parse(readFileSync(path.join(runDir, 'run.json'), 'utf8')) as { nodes: RecordedNode[] }).nodes;

/** The shipped fleet.yaml with the nodes a run recorded (the box's addresses, links and speeds): the run's fleet. */
function writeRunFleet(runDir: string, edit: (node: RecordedNode) => RecordedNode = (node) => node): string {
  const shipped = readFileSync(path.join(dir, 'fleet.yaml'), 'utf8');
  const head = shipped.slice(0, shipped.indexOf('\nnodes:'));
  const nodes = recordedNodes(runDir)
    .map(edit)
    .map(
      (node) =>
        `  - { name: ${node.name}, builder: ${node.builder}, address: ${node.address}, link_mbps: ${node.linkMbps}, speed: ${node.speed}, node_exporter: http://${node.address}:9100/metrics, ssh: { host: ${node.address}, user: builder } }`,
    );
  const file = path.join(dir, 'run-fleet.yaml');
  writeFileSync(file, `${head}\nnodes:\n${nodes.join('\n')}\n`);
  return file;
}

describe('rocm-perf costs --from a run of another fleet or scale', () => {
  it('refuses the box run against the shipped fleet.yaml, naming what differs, and writes nothing', async () => {
    const before = readFileSync(path.join(dir, 'target-costs'), 'utf8');
    const error: unknown = await costsOn(path.join(dir, 'fleet.yaml'), '--from', COLD_RUN, '--dry-run').catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({ code: 'ROCMPERF_USAGE', exitCode: 2 });
    const { message, hint } = error as { message: string; hint: string };
    expect(message).toMatch(/^--from: a run was recorded on another fleet or scale than .*fleet\.yaml/);
    // Independent of the product: every node run.json recorded, with the shipped fleet's link beside it.
    for (const node of recordedNodes(COLD_RUN))
      expect(message).toContain(`${node.name}: address ${node.address} (fleet.yaml: ${node.name}.fleet.lan)`);
    const strix = recordedNodes(COLD_RUN).find((node) => node.name === 'strix')!;
    expect(message).toContain(
      `strix: address ${strix.address} (fleet.yaml: strix.fleet.lan), link_mbps ${strix.linkMbps} (fleet.yaml: 900)`,
    );
    expect(hint).toMatch(/--allow-other-fleet/);
    expect(stdout.join('\n')).not.toMatch(/link_mbps|build pytorch/);
    expect(readFileSync(path.join(dir, 'target-costs'), 'utf8')).toBe(before);
  });

  it('takes the run against the fleet it recorded, and refuses it at another scale (every link 20×)', async () => {
    await costsOn(writeRunFleet(COLD_RUN), '--from', COLD_RUN, '--dry-run');
    expect(stdout.join('\n')).toMatch(/^build pytorch /m);
    const scaled = writeRunFleet(COLD_RUN, (node) => ({ ...node, linkMbps: node.linkMbps * 20 }));
    await expect(costsOn(scaled, '--from', COLD_RUN, '--dry-run')).rejects.toThrow(
      /kiln: link_mbps 0\.215 \(fleet\.yaml: 4\.3\)/,
    );
  });

  it('--allow-other-fleet goes ahead, with a note naming the differences', async () => {
    await costsOn(path.join(dir, 'fleet.yaml'), '--from', COLD_RUN, '--dry-run', '--allow-other-fleet');
    const strix = recordedNodes(COLD_RUN).find((node) => node.name === 'strix')!;
    expect(stderr.join('\n')).toMatch(
      new RegExp(
        `^note: --allow-other-fleet: learning from a run recorded on another fleet or scale: .*strix: address ${strix.address.replaceAll('.', '\\.')}`,
        'm',
      ),
    );
  });
});

/** Lines of `after` that differ from `before` (same line count: edits replace values in place). */
function changedLines(before: string, after: string): [string, string][] {
  const a = before.split('\n');
  const b = after.split('\n');
  expect(b).toHaveLength(a.length);
  return a.flatMap((line, i): [string, string][] => (line === b[i] ? [] : [[line, b[i]!]]));
}

describe('rocm-perf costs --write-fleet', () => {
  it('edits fleet.yaml in place: the suggested link_mbps values change, comments and every other line stay', async () => {
    const before = readFileSync(path.join(dir, 'fleet.yaml'), 'utf8');
    await costs('--from', WARM_RUN, '--write-fleet');
    const after = readFileSync(path.join(dir, 'fleet.yaml'), 'utf8');
    const suggested = stdout.flatMap((line) => {
      const match =
        /^ {4}(\w+): link_mbps ([\d.]+) → ([\d.]+) \(fitted [\d.]+ MB\/s \+ \d+ ms a request /.exec(line);
      return match ? [{ node: match[1]!, from: match[2]!, to: match[3]! }] : [];
    });
    // The shipped fleet.yaml holds the real fleet's links, 20× the box's: every link with enough evidence moves.
    expect(suggested.map((s) => s.node)).toContain('kiln');
    expect(suggested.map((s) => s.node)).toEqual([...suggested.map((s) => s.node)].sort());
    // The shipped fleet.yaml sets no memory_gb: each node gets one, its MemTotal in the run's own samples.jsonl
    // (node_exporter's figure, not data.json's) in GiB rounded down to 0.1, inserted after its link_mbps line.
    const memTotalGb = new Map(
      readFileSync(path.join(WARM_RUN, 'samples.jsonl'), 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { node: string; memTotalBytes: number })
        .map((sample) => [sample.node, Math.floor((sample.memTotalBytes / 2 ** 30) * 10) / 10]),
    );
    const inserted = after.split('\n').filter((line) => /^ {4}memory_gb: /.test(line));
    expect(inserted).toEqual(
      recordedNodes(WARM_RUN).map((node) => `    memory_gb: ${memTotalGb.get(node.name)}`),
    );
    // fleet.yaml lists strix first; the suggestions come in name order.
    const withoutInserted = after
      .split('\n')
      .filter((line) => !/^ {4}memory_gb: /.test(line))
      .join('\n');
    expect(changedLines(before, withoutInserted).sort()).toEqual(
      suggested.map((s) => [`    link_mbps: ${s.from}`, `    link_mbps: ${s.to}`]).sort(),
    );
    expect(after).toContain(
      "# link_mbps is each node's upload throughput to the store in MB/s (MB = 10^6 bytes).",
    );
    expect(stdout.at(-1)).toMatch(new RegExp(`fleet\\.yaml: wrote ${suggested[0]!.node} link_mbps [\\d.]+`));
    // The box shapes kiln at 0.215 MB/s (fleet.yaml 4.3 × the box's link scale 0.05): the latency + rate fit lands
    // within 15 % of it (0.237, +10 %, in the warm sample: one run, 8 wire-bound requests, spread ±34 %) and nearer
    // than bytes ÷ upload time, worked out here from kiln's targets' traces (0.141, −34 %).
    const kilnTargets = Object.entries(readRunTargets(WARM_RUN))
      .filter(([, outcome]) => outcome.node === 'kiln')
      .map(([target]) => target);
    const kilnFigures = kilnTargets.map((target) => traceFigures(WARM_RUN, target));
    const naiveMBps =
      kilnFigures.reduce((sum, f) => sum + f.uploadBytes, 0) /
      1e6 /
      kilnFigures.reduce((sum, f) => sum + f.uploadSeconds, 0);
    const fitError = Math.abs(Number(suggested.find((s) => s.node === 'kiln')?.to) / 0.215 - 1);
    expect(fitError).toBeLessThan(0.15);
    expect(fitError).toBeLessThan(Math.abs(naiveMBps / 0.215 - 1));
  });

  it('without --write-fleet it only suggests; the costs file gets the warm figures with spread lines over 1 run', async () => {
    const before = readFileSync(path.join(dir, 'fleet.yaml'), 'utf8');
    await costs('--from', WARM_RUN);
    expect(readFileSync(path.join(dir, 'fleet.yaml'), 'utf8')).toBe(before);
    // Only the nodes whose pushes are large enough to tell their rate change: kiln in the warm sample (8 of its 31
    // requests wire-bound; forge had 1, and 2 are needed).
    expect(stdout).toContain(`  Add --write-fleet to write them into ${path.join(dir, 'fleet.yaml')}.`);
    expect(
      stdout.filter((line) => / link_mbps [\d.]+ → /.test(line)).map((line) => line.trim().split(':')[0]),
    ).toEqual(['kiln']);
    expect(stdout).toContain(
      '    forge: speed 1, no evidence: no target it built ran on another node in these runs',
    );
    const written = parseTargetCosts(readFileSync(path.join(dir, 'target-costs'), 'utf8'), 'x');
    expect(written.errors).toEqual([]);
    const pytorch = reportedTarget(WARM_RUN, 'pytorch');
    // strix has speed 1 in the box, so the warm-build figure is the report's build seconds, to 3 digits.
    expect(written.costs.get('pytorch')?.warmBuildSeconds).toBeCloseTo(pytorch.buildSeconds, 2);
    expect(written.costs.get('pytorch')).toMatchObject({
      cacheBytes: pytorch.uploadBytes,
      warmBuildSpread: { sigma: 0, runs: 1 },
      cacheSpread: { sigma: 0, runs: 1 },
    });
  });

  it('refuses the cold run beside the warm one, naming it, and writes nothing', async () => {
    const before = readFileSync(path.join(dir, 'target-costs'), 'utf8');
    await expect(costs('--from', WARM_RUN, COLD_RUN, '--write-fleet')).rejects.toThrow(
      `--from: cannot pool these runs: ${COLD_RUN}: run ${stampOf(COLD_RUN)} is a cold run and the first, ${stampOf(WARM_RUN)}, a warm run`,
    );
    expect(readFileSync(path.join(dir, 'target-costs'), 'utf8')).toBe(before);
  });
});
