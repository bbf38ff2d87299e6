import { InternalError } from '../shared/errors.js';

// Relative node speeds from build seconds (docs/planning.md, "The fleet model learns"). Model: ln(build_{t,n}) =
// ln(base_t) − ln(speed_n) + noise, fitted by least squares over every (target, node) observation. Only a target
// that ran on two or more nodes says anything about speed; nodes linked through such targets form a component, and
// within a component only speed ratios are identified, so each component is anchored: the geometric mean of its
// fitted speeds equals the geometric mean of its configured speeds. A node in no component has no evidence. Pure.

/** One target's measured build on one node in one run: the trace's step span, not normalised by any speed. */
export interface BuildObservation {
  run: string;
  node: string;
  target: string;
  seconds: number;
}

export type SpeedEstimate =
  | {
      node: string;
      status: 'fitted';
      speed: number;
      /** Standard error of ln(speed) given the anchor; undefined when the fit has no residual degrees of freedom. */
      logSe: number | undefined;
      /** Targets this node shares with another node, builds of them on this node, and runs they came from. */
      sharedTargets: number;
      builds: number;
      runs: number;
    }
  | { node: string; status: 'no-evidence'; builds: number; reason: string };

export interface SpeedFit {
  nodes: SpeedEstimate[];
  /** The scatter of one build's ln(seconds) about the fit (classical, RSS ÷ degrees of freedom); undefined at 0 dof. */
  residualSigma: number | undefined;
  degreesOfFreedom: number;
}

export interface FitNodeSpeedsOptions {
  builds: readonly BuildObservation[];
  /** Configured speeds (fleet.yaml): they set each component's scale; nodes here without builds are listed too. */
  configured: ReadonlyMap<string, number>;
}

interface Component {
  nodes: string[];
  targets: string[];
}

export function fitNodeSpeeds({ builds, configured }: FitNodeSpeedsOptions): SpeedFit {
  const usable = builds.filter((b) => Number.isFinite(b.seconds) && b.seconds > 0);
  const byTarget = groupBy(usable, (b) => b.target);
  const shared = [...byTarget.keys()].filter((t) => new Set(byTarget.get(t)!.map((b) => b.node)).size >= 2);
  const components = findComponents(shared, byTarget);
  const fitted = new Map<string, { logSpeed: number; variance: number }>();
  let [rss, observations, parameters] = [0, 0, 0];
  for (const component of components) {
    const fit = fitComponent(component, byTarget, configured);
    for (const [node, figures] of fit.nodes) fitted.set(node, figures);
    rss += fit.rss;
    observations += fit.observations;
    parameters += component.targets.length + component.nodes.length - 1;
  }
  const dof = observations - parameters;
  const residualSigma = dof > 0 ? Math.sqrt(rss / dof) : undefined;
  const names = [...new Set([...configured.keys(), ...usable.map((b) => b.node)])].sort();
  return {
    nodes: names.map((node) => toEstimate({ node, usable, shared: new Set(shared), fitted, residualSigma })),
    residualSigma,
    degreesOfFreedom: Math.max(0, dof),
  };
}

function toEstimate({
  node,
  usable,
  shared,
  fitted,
  residualSigma,
}: {
  node: string;
  usable: readonly BuildObservation[];
  shared: ReadonlySet<string>;
  fitted: ReadonlyMap<string, { logSpeed: number; variance: number }>;
  residualSigma: number | undefined;
}): SpeedEstimate {
  const mine = usable.filter((b) => b.node === node);
  const fit = fitted.get(node);
  if (!fit)
    return {
      node,
      status: 'no-evidence',
      builds: mine.length,
      reason:
        mine.length === 0
          ? 'no measured build on it in these runs'
          : 'no target it built ran on another node in these runs',
    };
  const onShared = mine.filter((b) => shared.has(b.target));
  return {
    node,
    status: 'fitted',
    speed: Math.exp(fit.logSpeed),
    logSe: residualSigma === undefined ? undefined : residualSigma * Math.sqrt(Math.max(0, fit.variance)),
    sharedTargets: new Set(onShared.map((b) => b.target)).size,
    builds: onShared.length,
    runs: new Set(onShared.map((b) => b.run)).size,
  };
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  return groups;
}

/** Nodes joined by shared targets (union–find), each component with its targets; sorted for determinism. */
function findComponents(
  shared: readonly string[],
  byTarget: ReadonlyMap<string, BuildObservation[]>,
): Component[] {
  const parent = new Map<string, string>();
  const find = (node: string): string => {
    const up = parent.get(node) ?? node;
    if (up === node) return node;
    const root = find(up);
    parent.set(node, root);
    return root;
  };
  for (const target of shared) {
    const [first, ...rest] = byTarget.get(target)!.map((b) => b.node);
    for (const node of [first!, ...rest]) if (!parent.has(node)) parent.set(node, node);
    for (const node of rest) parent.set(find(node), find(first!));
  }
  const components = new Map<string, Component>();
  for (const node of [...parent.keys()].sort()) {
    const root = find(node);
    const component = components.get(root) ?? { nodes: [], targets: [] };
    component.nodes.push(node);
    components.set(root, component);
  }
  for (const target of [...shared].sort())
    components.get(find(byTarget.get(target)![0]!.node))!.targets.push(target);
  return [...components.values()];
}

/**
 * Least squares on one component. With a_t eliminated (a_t = mean over t's builds of y + s_n), the speeds s = ln
 * speed solve L s = b, L a weighted graph Laplacian (null space: the constant vector, the anchor's freedom). Its
 * pseudo-inverse, (L + J/k)⁻¹ − J/k, gives the sum-zero solution and its covariance ÷ σ².
 */
function fitComponent(
  component: Component,
  byTarget: ReadonlyMap<string, BuildObservation[]>,
  configured: ReadonlyMap<string, number>,
): { nodes: Map<string, { logSpeed: number; variance: number }>; rss: number; observations: number } {
  const k = component.nodes.length;
  const index = new Map(component.nodes.map((node, i) => [node, i]));
  const laplacian = component.nodes.map(() => new Array<number>(k).fill(0));
  const rhs = new Array<number>(k).fill(0);
  const targets = component.targets.map((target) => summarizeTarget(byTarget.get(target)!, index, k));
  for (const { counts, sums, total, mean } of targets)
    for (let n = 0; n < k; n++) {
      rhs[n]! += counts[n]! * mean - sums[n]!;
      for (let m = 0; m < k; m++)
        laplacian[n]![m]! += (n === m ? counts[n]! : 0) - (counts[n]! * counts[m]!) / total;
    }
  const pseudo = invert(laplacian.map((row) => row.map((value) => value + 1 / k))).map((row) =>
    row.map((value) => value - 1 / k),
  );
  const centred = pseudo.map((row) => row.reduce((sum, value, m) => sum + value * rhs[m]!, 0));
  const anchor = component.nodes.reduce((sum, node) => sum + Math.log(configured.get(node) ?? 1), 0) / k;
  let [rss, observations] = [0, 0];
  for (const [t, target] of component.targets.entries()) {
    const { counts, total, mean } = targets[t]!;
    const base = mean + counts.reduce((sum, count, n) => sum + count * centred[n]!, 0) / total;
    for (const build of byTarget.get(target)!) {
      const residual = Math.log(build.seconds) - base + centred[index.get(build.node)!]!;
      rss += residual * residual;
      observations += 1;
    }
  }
  const nodes = new Map(
    component.nodes.map((node, n) => [node, { logSpeed: centred[n]! + anchor, variance: pseudo[n]![n]! }]),
  );
  return { nodes, rss, observations };
}

function summarizeTarget(
  builds: readonly BuildObservation[],
  index: ReadonlyMap<string, number>,
  k: number,
): { counts: number[]; sums: number[]; total: number; mean: number } {
  const counts = new Array<number>(k).fill(0);
  const sums = new Array<number>(k).fill(0);
  for (const build of builds) {
    const n = index.get(build.node)!;
    counts[n]! += 1;
    sums[n]! += Math.log(build.seconds);
  }
  const total = builds.length;
  return { counts, sums, total, mean: sums.reduce((a, b) => a + b, 0) / total };
}

/** Gauss–Jordan with partial pivoting; the matrices here are small (one row per node of a component). */
function invert(matrix: readonly (readonly number[])[]): number[][] {
  const n = matrix.length;
  const rows = matrix.map((row, i) => [...row, ...Array.from({ length: n }, (_, j) => (i === j ? 1 : 0))]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(rows[r]![col]!) > Math.abs(rows[pivot]![col]!)) pivot = r;
    if (Math.abs(rows[pivot]![col]!) < 1e-12) throw new InternalError('speed fit: singular normal equations');
    [rows[col], rows[pivot]] = [rows[pivot]!, rows[col]!];
    const lead = rows[col]!;
    const scale = lead[col]!;
    for (let c = 0; c < 2 * n; c++) lead[c]! /= scale;
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const factor = rows[r]![col]!;
      if (factor !== 0) for (let c = 0; c < 2 * n; c++) rows[r]![c]! -= factor * lead[c]!;
    }
  }
  return rows.map((row) => row.slice(n));
}
