import type { Advice } from '../artifacts/index.js';
import type { SideFigures } from '../diff/index.js';
import { formatDuration } from '../shared/format-units.js';
import type { AdviseInput } from './advise-input.js';
import { describeSaving, notReplayable } from './describe-saving.js';
import { moveTarget, replayWhatIf, type WhatIf } from './replay-what-if.js';

// A node whose link makes a target's export dominate: the target spent longer uploading than building. Two
// what-ifs, each a replay of the run: the target on the best other node (at that node's measured throughput), and
// the node's link at the rate that makes the upload take as long as the build. The action is the larger saving;
// an export that dominates off the critical path saves nothing and is not advised. Pure.

interface Candidate {
  action: string;
  replay: WhatIf;
  what: string;
  nodes: string[];
}

function tryOtherNodes(side: SideFigures, target: string, node: string): Candidate[] {
  return Object.keys(side.nodes)
    .filter((other) => other !== node && (side.queues[other]?.length ?? 0) > 0)
    .sort()
    .map((other) => ({
      action: `Run ${target} on ${other} instead of ${node}, whose link makes its export dominate.`,
      replay: replayWhatIf(side, (copy) => moveTarget(copy, target, other)),
      what: `${target} on ${other}`,
      nodes: [node, other],
    }));
}

function tryFasterLink(
  side: SideFigures,
  target: string,
  node: string,
  buildSeconds: number,
): Candidate | undefined {
  const bytes = side.targets[target]!.uploadBytes;
  if (!(bytes > 0) || !(buildSeconds > 0)) return undefined;
  const rate = bytes / buildSeconds;
  const current = side.nodes[node]!.throughputBytesPerSecond;
  if (!(rate > current)) return undefined;
  const mbps = rate / 1e6;
  const text = mbps >= 10 ? mbps.toFixed(0) : mbps.toPrecision(2);
  return {
    action: `Raise ${node}'s upload link to at least ${text} MB/s (measured ${(current / 1e6).toPrecision(2)} MB/s), so ${target}'s export no longer outlasts its build.`,
    replay: replayWhatIf(side, (copy) => (copy.nodes[node]!.throughputBytesPerSecond = rate)),
    what: `${node}'s upload at ${text} MB/s`,
    nodes: [node],
  };
}

export function adviseLinkBoundExports(input: AdviseInput): Advice[] {
  const advice: Advice[] = [];
  for (const target of input.model.summary.targets) {
    const { uploadSeconds, buildSeconds } = target;
    if (target.status !== 'ok' || uploadSeconds === null || buildSeconds === null) continue;
    if (!(uploadSeconds > buildSeconds)) continue;
    const evidence = [
      `data.json targets[${target.target}]: upload ${formatDuration(uploadSeconds)} against build ${formatDuration(buildSeconds)} on ${target.node}`,
    ];
    if (!input.side) {
      advice.push({
        kind: 'link-bound-export',
        action: `Move ${target.target} off ${target.node} or give ${target.node} a faster link: its export outlasts its build.`,
        savingSeconds: null,
        evidence: [...evidence, notReplayable(input)],
        targets: [target.target],
        nodes: [target.node],
      });
      continue;
    }
    if (!input.side.targets[target.target]) continue;
    const candidates = [
      ...tryOtherNodes(input.side, target.target, target.node),
      ...[tryFasterLink(input.side, target.target, target.node, buildSeconds)].flatMap((c) => (c ? [c] : [])),
    ].sort((a, b) => b.replay.savingSeconds - a.replay.savingSeconds);
    const best = candidates[0];
    if (!best || !(best.replay.savingSeconds > 0)) continue;
    const others = candidates
      .slice(1, 3)
      .map((c) => `${c.what}: saves ${formatDuration(Math.max(0, c.replay.savingSeconds))}`);
    advice.push({
      kind: 'link-bound-export',
      action: best.action,
      savingSeconds: best.replay.savingSeconds,
      evidence: [
        ...evidence,
        describeSaving(best.replay, best.what),
        ...(others.length > 0 ? [`next best: ${others.join('; ')}`] : []),
      ],
      targets: [target.target],
      nodes: best.nodes,
    });
  }
  return advice;
}
