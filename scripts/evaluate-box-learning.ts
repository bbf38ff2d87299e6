// `npm run build && npx tsx scripts/evaluate-box-learning.ts` (root: network namespaces, cgroups): does the fleet
// model learn a node's speed and link from runs? A box of the gfx1201 scenario whose nodes compile at known, unequal
// speeds (CPU quota = the box's base cores × speed) while its fleet.yaml is stale: every `speed` removed (1) and
// every `link_mbps` doubled. Three cold runs with different placement strategies put targets on different nodes;
// `rocm-perf costs --from` the three prints what it learned. Printed per node: configured, truth, learned, error.
// Truth is the box's own: the cgroup quota it set, and the tc rate it shapes the node's link to.
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFleet } from '../test/fleet/index.js';
import { runBoxCli } from './run-box-cli.js';

const TRUE_SPEEDS: Record<string, number> = { strix: 2, forge: 1.5, anvil: 1, bench: 0.75, kiln: 0.5 };
const runsRoot = mkdtempSync(path.join(os.tmpdir(), 'rocm-perf-learning-'));

/** The stale fleet.yaml a user might hold: no speeds, every link twice what it is. */
function makeFleetStale(fleetPath: string): void {
  const text = readFileSync(fleetPath, 'utf8')
    .split('\n')
    .filter((line) => !/^\s+speed: /.test(line))
    .map((line) =>
      line.replace(
        /^(\s+link_mbps: )([\d.]+)$/,
        (_, key: string, value: string) => `${key}${Number(value) * 2}`,
      ),
    )
    .join('\n');
  writeFileSync(fleetPath, text);
}

const fleet = await startFleet({ scenario: 'gfx1201', nodeSpeeds: TRUE_SPEEDS });
try {
  makeFleetStale(fleet.fleetPath);
  const runs: string[] = [];
  for (const strategy of ['heft-ls', 'lpt', 'build-only']) {
    const stdout = await runBoxCli(
      fleet,
      ['cold', '--root', runsRoot, '--sample-interval-ms', '1000', '--strategy', strategy],
      { stderr: 'pipe' },
    );
    runs.push(stdout.trim().split('\n').at(-1) ?? '');
    console.error(`cold run (${strategy}) done: ${runs.at(-1)}`);
  }
  const out = await runBoxCli(fleet, ['costs', ...runs.flatMap((run) => ['--from', run])], {
    stderr: 'pipe',
  });
  const learned = out.split('\n').filter((line) => /^ {4}\w+: (link_mbps|speed) /.test(line));
  console.log(learned.join('\n'));
  const speedOf = (node: string) =>
    Number(
      new RegExp(`^ {4}${node}: speed [\\d.]+(?: → ([\\d.]+)|, measured ([\\d.]+))`)
        .exec(
          learned
            .join('\n')
            .split('\n')
            .find((l) => l.startsWith(`    ${node}: speed`)) ?? '',
        )
        ?.slice(1)
        .find(Boolean),
    );
  const linkOf = (node: string) => {
    const line = learned.find((l) => l.startsWith(`    ${node}: link_mbps`)) ?? '';
    // `→ 0.193 (fitted …` when suggested, `fitted 5.37 MB/s + …` when kept, `rate unknown` without wire-bound requests.
    return Number(/→ ([\d.]+)|fitted ([\d.]+) MB\/s/.exec(line)?.slice(1).find(Boolean));
  };
  const nodes = fleet.nodes.map((n) => n.name);
  // The fit is anchored to the configured geometric mean (all 1 here): compare ratios to the true speeds' geometric mean.
  const geo = Math.exp(nodes.reduce((sum, n) => sum + Math.log(TRUE_SPEEDS[n]!), 0) / nodes.length);
  console.log(
    '\n| node | configured speed | true speed (quota ÷ base) | true ÷ geometric mean | learned | error | configured link_mbps | true tc rate MB/s | learned MB/s | error |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const node of fleet.nodes) {
    const trueSpeed = node.cgroup.quotaCores / fleet.cpuBaseCores;
    const relative = trueSpeed / geo;
    const speed = speedOf(node.name);
    const rate = node.rateBits / 8e6;
    const link = linkOf(node.name);
    console.log(
      `| ${node.name} | 1 | ${trueSpeed.toFixed(2)} | ${relative.toFixed(3)} | ${speed.toFixed(3)} | ${(((speed - relative) / relative) * 100).toFixed(1)} % | ${(rate * 2).toPrecision(3)} | ${rate.toPrecision(3)} | ${link.toPrecision(3)} | ${(((link - rate) / rate) * 100).toFixed(0)} % |`,
    );
  }
} finally {
  await fleet.stop();
  rmSync(runsRoot, { recursive: true, force: true });
}
