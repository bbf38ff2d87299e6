import { MIN_WIRE_BOUND_REQUESTS } from './fit-upload-link.js';
import type { FleetLearning, LinkFinding, SpeedFinding } from './learn-fleet.js';
import { renderMemoryFinding } from './learn-node-memory.js';

// What `rocm-perf costs` prints about the fleet: each node's measured upload throughput and speed against
// fleet.yaml, with the evidence, and which changes it suggests. Pure.

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** Three significant digits, without trailing zeros: 0.215, 11.2, 457. */
function formatFigure(value: number): string {
  return String(Number(value.toPrecision(3)));
}

/** Decimal units, as link_mbps is: 629 kB, 1.9 MB. */
function formatDecimalBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let [value, unit] = [bytes, 0];
  while (value >= 1000 && unit < units.length - 1) [value, unit] = [value / 1000, unit + 1];
  return unit === 0 ? `${value} B` : `${value.toFixed(value >= 100 ? 0 : 1)} ${units[unit]}`;
}

const formatSpread = (sigma: number | undefined) =>
  sigma === undefined ? 'spread unknown' : `spread ±${Math.round(sigma * 100)} %`;

/** The per-request cost as what it is: latency, with how far single requests stray from it. */
function formatLatency(link: LinkFinding): string {
  return `${Math.round(link.fit.latencyMs)} ms a request (±${Math.round(link.fit.noiseMs)} ms)`;
}

function renderLink(link: LinkFinding): string {
  const { fit } = link;
  const evidence = `${plural(link.runs, 'run')}, ${plural(link.targets, 'target')}, ${plural(fit.requests, 'request')}, ${fit.wireBound} wire-bound, largest ${formatDecimalBytes(Math.round(fit.largestLoadBytes))}, ${formatSpread(fit.wireBound >= 2 ? fit.logSigma : undefined)}; effective ${formatFigure(link.effectiveMBps)} MB/s: ${formatDecimalBytes(link.bytes)} in ${link.uploadSeconds.toFixed(1)} s`;
  const configured =
    link.configuredMbps === undefined ? 'not in fleet.yaml' : formatFigure(link.configuredMbps);
  // A rate resting on latency-bound requests is no measurement: not printed as one.
  const rate =
    fit.rateMBps === undefined || fit.wireBound < MIN_WIRE_BOUND_REQUESTS
      ? 'rate unknown'
      : `${formatFigure(fit.rateMBps)} MB/s`;
  if (link.suggestedMbps !== undefined)
    return `${link.node}: link_mbps ${configured} → ${formatFigure(link.suggestedMbps)} (fitted ${rate} + ${formatLatency(link)}; ${evidence})`;
  return `${link.node}: link_mbps ${configured}, fitted ${rate} + ${formatLatency(link)} (${evidence}); kept: ${link.verdict.why}`;
}

function renderSpeed(speed: SpeedFinding, residualSigma: number | undefined): string {
  const configured =
    speed.configuredSpeed === undefined ? 'not in fleet.yaml' : formatFigure(speed.configuredSpeed);
  if (speed.status === 'no-evidence')
    return `${speed.node}: speed ${configured}, no evidence: ${speed.reason}`;
  const evidence = `${plural(speed.sharedTargets, 'shared target')}, ${plural(speed.builds, 'build')}, ${plural(speed.runs, 'run')}, ${formatSpread(residualSigma)}, standard error ${speed.logSe === undefined ? 'unknown' : `±${Math.round(speed.logSe * 100)} %`}`;
  if (speed.suggestedSpeed !== undefined)
    return `${speed.node}: speed ${configured} → ${formatFigure(speed.suggestedSpeed)} (measured over ${evidence})`;
  return `${speed.node}: speed ${configured}, measured ${formatFigure(speed.speed)} (${evidence}); kept: ${speed.verdict?.why ?? ''}`;
}

/** The lines `costs` prints, the suggested changes first in each section. */
export function renderFleetLearning(learning: FleetLearning, fleetPath: string): string[] {
  const suggested =
    [...learning.links, ...learning.speeds].filter((f) => f.verdict?.suggest).length +
    learning.memory.filter((m) => m.suggestedGb !== undefined).length;
  return [
    `Fleet model, measured against ${fleetPath}:`,
    '  upload links (each request fitted as a per-request cost + the bytes on the link ÷ a rate, MB/s, vs link_mbps):',
    ...learning.links.map((link) => `    ${renderLink(link)}`),
    ...learning.unmeasuredLinks.map((node) => `    ${node}: no measured upload in these runs`),
    '  speeds (least squares on build seconds of targets that ran on several nodes, scaled to the configured geometric mean):',
    ...learning.speeds.map((speed) => `    ${renderSpeed(speed, learning.residualSigma)}`),
    ...(learning.memory.length === 0
      ? []
      : [
          '  memory (what the runs saw, data.json nodes[].usage.memoryBytes, vs memory_gb; the planner keeps targets off nodes they do not fit):',
          ...learning.memory.map((memory) => `    ${renderMemoryFinding(memory)}`),
        ]),
    suggested === 0
      ? '  No change suggested (a change must be over 10 % and outside twice its standard error).'
      : `  ${plural(suggested, 'change')} suggested (→ above).`,
  ];
}
