import { UsageError } from '../shared/errors.js';
import type { PlanNode } from './cost-model.js';

// What-if fleet edits for `rocm-perf plan --from-run` (--link, --speed, --drop-node, --add-node; their formats are
// parsed by the plan command's flag table). Applying them is pure; every error names the flag, the node and the fix.

export interface FleetChanges {
  links: Record<string, number>;
  speeds: Record<string, number>;
  dropNodes: string[];
  addNodes: PlanNode[];
}

export function isFleetChanged(changes: FleetChanges): boolean {
  return (
    Object.keys(changes.links).length +
      Object.keys(changes.speeds).length +
      changes.dropNodes.length +
      changes.addNodes.length >
    0
  );
}

function requireKnown(flag: string, names: Iterable<string>, known: ReadonlySet<string>): void {
  for (const name of names) {
    if (!known.has(name))
      throw new UsageError(`${flag} ${name}: no node \`${name}\` in the fleet`, {
        hint: `nodes: ${[...known].sort().join(', ')}`,
      });
  }
}

/** Adds, then drops, then sets links and speeds (so an added node can be edited too). */
export function applyFleetChanges(nodes: readonly PlanNode[], changes: FleetChanges): PlanNode[] {
  const fleet = nodes.map((node) => ({ ...node }));
  for (const added of changes.addNodes) {
    if (fleet.some((node) => node.name === added.name))
      throw new UsageError(`--add-node name=${added.name}: the fleet already has a node \`${added.name}\``, {
        hint: 'pick another name, or change it with --link/--speed',
      });
    fleet.push({ ...added });
  }
  requireKnown('--drop-node', changes.dropNodes, new Set(fleet.map((node) => node.name)));
  const kept = fleet.filter((node) => !changes.dropNodes.includes(node.name));
  if (kept.length === 0)
    throw new UsageError('--drop-node: that drops every node of the fleet', {
      hint: 'keep at least one node, or add one with --add-node',
    });
  const known = new Set(kept.map((node) => node.name));
  requireKnown('--link', Object.keys(changes.links), known);
  requireKnown('--speed', Object.keys(changes.speeds), known);
  return kept.map((node) => ({
    ...node,
    linkMbps: changes.links[node.name] ?? node.linkMbps,
    speed: changes.speeds[node.name] ?? node.speed,
  }));
}

/** One line per change, e.g. `kiln link 4.3 → 110 MB/s`. */
export function describeFleetChanges(nodes: readonly PlanNode[], changes: FleetChanges): string[] {
  const before = new Map([...nodes, ...changes.addNodes].map((node) => [node.name, node]));
  return [
    ...changes.addNodes.map((node) => `added ${node.name} (link ${node.linkMbps} MB/s, speed ${node.speed})`),
    ...changes.dropNodes.map((name) => `dropped ${name}`),
    ...Object.entries(changes.links).map(
      ([name, mbps]) => `${name} link ${before.get(name)?.linkMbps ?? '?'} → ${mbps} MB/s`,
    ),
    ...Object.entries(changes.speeds).map(
      ([name, speed]) => `${name} speed ${before.get(name)?.speed ?? '?'} → ${speed}`,
    ),
  ];
}
