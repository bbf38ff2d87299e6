import type { SideFigures } from '../diff/index.js';
import { buildExplainInputs, createCoalitionValue } from '../diff/build-explain-inputs.js';

// The advisor's what-if: the run replayed by diff's counterfactual replay (the run's own queues, waits, build
// seconds and upload throughput, fitted so that replaying them gives back the run's makespan), once as recorded and
// once with an edit applied. The saving is the difference. Pure.

export interface WhatIf {
  baselineSeconds: number;
  whatIfSeconds: number;
  savingSeconds: number;
}

/** Replay `side` as recorded and with `edit` applied to a copy of it. */
export function replayWhatIf(side: SideFigures, edit: (copy: SideFigures) => void): WhatIf {
  const copy = structuredClone(side);
  edit(copy);
  const inputs = buildExplainInputs({ a: side, b: copy });
  const value = createCoalitionValue(inputs);
  const baselineSeconds = value(new Set());
  const whatIfSeconds = value(new Set(inputs.players));
  return { baselineSeconds, whatIfSeconds, savingSeconds: baselineSeconds - whatIfSeconds };
}

const speedOf = (side: SideFigures, node: string) => {
  const speed = side.nodes[node]?.speed;
  return speed !== null && speed !== undefined && speed > 0 ? speed : 1;
};

/** Move a target to the end of its start-time place in another node's queue; its work scales by the speeds. */
export function moveTarget(side: SideFigures, target: string, toNode: string): void {
  const figures = side.targets[target]!;
  const from = figures.node;
  side.queues[from] = (side.queues[from] ?? []).filter((name) => name !== target);
  const queue = [...(side.queues[toNode] ?? [])];
  const at = queue.findIndex((name) => side.targets[name]!.startSeconds > figures.startSeconds);
  queue.splice(at < 0 ? queue.length : at, 0, target);
  side.queues[toNode] = queue;
  figures.buildSeconds = (figures.buildSeconds * speedOf(side, from)) / speedOf(side, toNode);
  figures.node = toNode;
}

/** The target's steps that ran, taken out: what it would have taken with those steps cached. */
export function cacheSteps(side: SideFigures, target: string, uncachedSeconds: number): void {
  const figures = side.targets[target]!;
  figures.buildSeconds = Math.max(0, figures.buildSeconds - uncachedSeconds);
}
