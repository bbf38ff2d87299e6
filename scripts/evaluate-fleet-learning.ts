// How well `rocm-perf costs` learns the fleet, on runs recorded on the fleet in a box, where the truth is known: the
// box shapes each node's egress with tc tbf at exactly its fleet.yaml link_mbps (scenario link × linkScale;
// test/fleet/network.ts, docs/fleet-in-a-box.md) and gives each node a CPU quota of cpuBaseCores × speed
// (test/fleet/start-fleet.ts). Prints per node: configured link_mbps, the tc rate, the measured throughput and its
// error; then configured speed, the quota and the fitted speed (or why there is none).
//
//   node --import tsx scripts/evaluate-fleet-learning.ts [RUN_DIR...]     (default: fixtures/runs/gfx1201-warm)
import path from 'node:path';
import { availableParallelism } from 'node:os';
import { learnFleet, measureUploadLinks, toUploadObservations } from '../src/plan/index.js';
import { type UploadObservation } from '../src/plan/learn-fleet.js';
import { deriveTargetCosts } from '../src/plan/derive-target-costs.js';
import { readCostRuns, refuseUnpoolableRuns } from '../src/costs/read-cost-runs.js';
import { defaultBoxScale, gfx1201Nodes } from '../test/fleet/box-scenario.js';
import { toTbfRateBits } from '../test/fleet/fleet-names.js';
import { toCpuBaseCores } from '../test/fleet/start-fleet.js';

const repoRoot = path.resolve(import.meta.dirname, '..');
const dirs = process.argv.slice(2).map((dir) => path.resolve(dir));
if (dirs.length === 0) dirs.push(path.join(repoRoot, 'fixtures/runs/gfx1201-warm'));

const { runs } = await readCostRuns(dirs, { allowPartial: false, nowMs: Date.now() });
refuseUnpoolableRuns(runs);
const recorded = runs[0]!.run.nodes;
const derived = deriveTargetCosts({ runs, current: new Map() });
const uploads = runs.flatMap(
  ({ run, traces }) => toUploadObservations({ run, traces: traces.values() }).uploads,
);
const learning = learnFleet({ uploads, builds: derived.builds, nodes: recorded });

/** The tbf rate the box set for a node, in MB/s: its scenario link × linkScale, rounded as start-fleet rounds it. */
function toTcRateMBps(node: string): number | undefined {
  const spec = gfx1201Nodes.find((n) => n.name === node);
  if (!spec) return undefined;
  const linkMbps = Math.round(spec.scenarioLinkMbps * defaultBoxScale.linkScale * 1000) / 1000;
  return toTbfRateBits(linkMbps) / 8 / 1e6;
}

/** The fastest single target's own effective throughput on the node: how close one long push gets to the link. */
function bestTargetMBps(mine: readonly UploadObservation[]): number {
  return Math.max(...mine.map((u) => measureUploadLinks([u])[0]?.effectiveMBps ?? 0));
}

const fmt = (value: number | undefined, digits = 3) =>
  value === undefined ? '—' : String(Number(value.toPrecision(digits)));
const pct = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(0)} %`;
const row = (cells: string[]) => `| ${cells.join(' | ')} |`;

console.log(`Runs: ${runs.map(({ run }) => `${run.stamp} (${run.harness})`).join(', ')}`);
console.log(
  `Box link scale ${defaultBoxScale.linkScale}; tc tbf rate = link_mbps × 8·10^6 bit/s, counting frame bytes.\n`,
);
console.log(
  row([
    'node',
    'link_mbps (run.json)',
    'tc rate MB/s',
    'effective MB/s',
    'fitted MB/s',
    'error vs tc',
    'per request ms',
    'wire-bound',
    'bytes',
    'upload s',
    'targets',
    'best target MB/s',
    'suggests',
  ]),
);
console.log(row(Array.from({ length: 13 }, () => '---')));
for (const node of recorded) {
  const tc = toTcRateMBps(node.name);
  const link = learning.links.find((l) => l.node === node.name);
  const mine = uploads.filter((u) => u.node === node.name);
  console.log(
    row([
      node.name,
      fmt(node.linkMbps),
      tc === undefined || Math.abs(tc - node.linkMbps) > 1e-9
        ? `${fmt(tc)} (≠ run.json: another scale?)`
        : fmt(tc),
      fmt(link?.effectiveMBps),
      fmt(link?.fit.rateMBps),
      link?.fit.rateMBps !== undefined && tc ? pct((link.fit.rateMBps / tc - 1) * 100) : '—',
      link ? `${link.fit.latencyMs.toFixed(0)} ±${link.fit.noiseMs.toFixed(0)}` : '—',
      link ? `${link.fit.wireBound} of ${link.fit.requests}` : '—',
      link ? String(link.bytes) : '—',
      link ? link.uploadSeconds.toFixed(3) : '—',
      link ? String(link.targets) : '0',
      mine.length > 0 ? fmt(bestTargetMBps(mine)) : '—',
      link?.suggestedMbps === undefined
        ? `no (${link?.verdict.why ?? 'no uploads'})`
        : `→ ${link.suggestedMbps}`,
    ]),
  );
}

const cpuBaseCores = toCpuBaseCores(recorded.map((node) => node.speed));
console.log(
  `\nSpeeds: the box's quota is cpuBaseCores × speed (cpuBaseCores ${cpuBaseCores} from toCpuBaseCores on this host's ${availableParallelism()} cores; the recording host's may differ), so the true relative speed is run.json's speed.\n`,
);
console.log(row(['node', 'speed (run.json)', 'CPU quota (cores)', 'fitted speed', 'error', 'evidence']));
console.log(row(Array.from({ length: 6 }, () => '---')));
for (const node of recorded) {
  const fit = learning.speeds.find((s) => s.node === node.name);
  const fitted = fit?.status === 'fitted' ? fit.speed : undefined;
  console.log(
    row([
      node.name,
      fmt(node.speed),
      fmt(cpuBaseCores * node.speed),
      fmt(fitted),
      fitted === undefined ? '—' : pct((fitted / node.speed - 1) * 100),
      fit?.status === 'fitted'
        ? `${fit.sharedTargets} shared targets, ${fit.builds} builds`
        : (fit?.reason ?? 'no builds'),
    ]),
  );
}
