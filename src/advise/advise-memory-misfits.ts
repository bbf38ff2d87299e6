import type { Advice } from '../artifacts/index.js';
import { formatBytes } from '../shared/format-units.js';
import type { AdviseInput } from './advise-input.js';
import { moveTarget, replayWhatIf } from './replay-what-if.js';
import { describeSaving, notReplayable } from './describe-saving.js';

// A RUN step whose memory peak does not fit the node it ran on: it came within the usage flags' 10 % of the
// node's memory, or its cgroup counted OOM kills. The what-if moves the target to the node where the replay finishes
// the run soonest among those its peak fits with the same 10 % margin. Pure.

const MARGIN = 0.9;

interface Misfit {
  target: string;
  node: string;
  step: string;
  peakBytes: number | null;
  oom: number;
  nodeBytes: number | null;
}

function findMisfits(input: AdviseInput, memory: ReadonlyMap<string, number>): Misfit[] {
  const misfits: Misfit[] = [];
  for (const target of input.model.summary.targets) {
    const nodeBytes = memory.get(target.node) ?? null;
    let worst: Misfit | undefined;
    for (const step of target.usage?.steps ?? []) {
      const oom = step.oomEvents ?? 0;
      const peak = step.memoryPeakBytes;
      const over = peak !== null && nodeBytes !== null && peak >= MARGIN * nodeBytes;
      if (!over && oom === 0) continue;
      if (!worst || (peak ?? 0) > (worst.peakBytes ?? 0))
        worst = {
          target: target.target,
          node: target.node,
          step: step.name,
          peakBytes: peak,
          oom,
          nodeBytes,
        };
    }
    if (worst) misfits.push(worst);
  }
  return misfits;
}

function describeMisfit(misfit: Misfit): string {
  const peak =
    misfit.peakBytes === null ? 'an unknown peak' : `a memory peak of ${formatBytes(misfit.peakBytes)}`;
  const node = misfit.nodeBytes === null ? 'memory unknown' : `${formatBytes(misfit.nodeBytes)} memory`;
  const oom = misfit.oom > 0 ? `, and its cgroup counted ${misfit.oom} OOM kill(s)` : '';
  return `data.json targets[${misfit.target}].usage: step \`${misfit.step}\` reached ${peak} on ${misfit.node} (${node})${oom}`;
}

function adviseOne(input: AdviseInput, memory: ReadonlyMap<string, number>, misfit: Misfit): Advice {
  const need = misfit.peakBytes ?? misfit.nodeBytes ?? 0;
  const fitting = [...memory]
    .filter(([node, bytes]) => node !== misfit.node && need < MARGIN * bytes)
    .map(([node]) => node)
    .sort();
  const base = {
    kind: 'memory-misfit' as const,
    targets: [misfit.target],
    evidence: [describeMisfit(misfit)],
  };
  const learn = `add \`memory ${misfit.target} ${Math.round(need)}\` to the target costs (\`rocm-perf costs --from RUN\` learns it) so the planner keeps it off ${misfit.node}`;
  if (fitting.length === 0)
    return {
      ...base,
      action: `Give a node more memory for ${misfit.target}: no node's memory fits its peak with a 10 % margin.`,
      savingSeconds: null,
      evidence: [...base.evidence, 'saving: none to replay: no other node has the memory'],
      nodes: [misfit.node],
    };
  if (!input.side)
    return {
      ...base,
      action: `Run ${misfit.target} on ${fitting[0]} instead of ${misfit.node}: ${learn}.`,
      savingSeconds: null,
      evidence: [...base.evidence, notReplayable(input)],
      nodes: [misfit.node, fitting[0]!],
    };
  const side = input.side;
  const tries = fitting
    .filter((node) => side.nodes[node] !== undefined)
    .map((node) => ({ node, replay: replayWhatIf(side, (copy) => moveTarget(copy, misfit.target, node)) }));
  const best = tries.sort(
    (a, b) => b.replay.savingSeconds - a.replay.savingSeconds || a.node.localeCompare(b.node),
  )[0];
  if (!best)
    return {
      ...base,
      action: `Run ${misfit.target} on ${fitting[0]} instead of ${misfit.node}: ${learn}.`,
      savingSeconds: null,
      evidence: [...base.evidence, `saving: not replayable: ${fitting.join(', ')} ran nothing in this run`],
      nodes: [misfit.node, fitting[0]!],
    };
  return {
    ...base,
    action: `Run ${misfit.target} on ${best.node} instead of ${misfit.node}: ${learn}.`,
    savingSeconds: best.replay.savingSeconds,
    evidence: [...base.evidence, describeSaving(best.replay, `${misfit.target} moved to ${best.node}`)],
    nodes: [misfit.node, best.node],
  };
}

/** Node → memory bytes, as data.json's node usage records it (fleet.yaml memory_gb, else MemTotal). */
function readNodeMemory(input: AdviseInput): Map<string, number> {
  const memory = new Map<string, number>();
  for (const node of input.model.summary.nodes)
    if (node.usage?.memoryBytes !== null && node.usage?.memoryBytes !== undefined)
      memory.set(node.node, node.usage.memoryBytes);
  return memory;
}

export function adviseMemoryMisfits(input: AdviseInput): Advice[] {
  const memory = readNodeMemory(input);
  return findMisfits(input, memory).map((misfit) => adviseOne(input, memory, misfit));
}
