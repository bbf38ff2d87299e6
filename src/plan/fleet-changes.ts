import { UsageError } from '../shared/errors.js';
import type { PlanNode } from './cost-model.js';

// What-if fleet edits for `rocm-perf plan --from-run`: --link NODE=MBPS, --speed NODE=FACTOR, --drop-node NODE,
// --add-node name=NAME,link=MBPS[,speed=FACTOR][,builder=NAME]. Parsing and applying are pure; every error names
// the flag, the bad value and the fix.

export interface FleetChanges {
  links: Record<string, number>;
  speeds: Record<string, number>;
  dropNodes: string[];
  addNodes: PlanNode[];
}

export interface RawFleetChanges {
  link?: readonly string[];
  speed?: readonly string[];
  dropNode?: readonly string[];
  addNode?: readonly string[];
}

function toPositive(flag: string, raw: string, text: string | undefined, unit: string): number {
  const value = Number(text);
  if (text === undefined || text.trim() === '' || !Number.isFinite(value) || value <= 0) {
    throw new UsageError(`${flag} ${raw}: \`${text ?? ''}\` is not a positive number of ${unit}`, {
      hint: `write it as ${flag === '--add-node' ? 'name=NAME,link=MBPS[,speed=FACTOR]' : `NODE=${unit === 'MB/s' ? '110' : '1.3'}`}`,
    });
  }
  return value;
}

function parseAssignments(
  flag: string,
  values: readonly string[] = [],
  unit: string,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const raw of values) {
    const at = raw.indexOf('=');
    const name = at > 0 ? raw.slice(0, at).trim() : '';
    if (name === '')
      throw new UsageError(`${flag} ${raw}: expected NODE=VALUE`, {
        hint: `for example ${flag} kiln=${unit === 'MB/s' ? '110' : '1.3'}`,
      });
    out[name] = toPositive(flag, raw, raw.slice(at + 1), unit);
  }
  return out;
}

function parseAddNode(raw: string): PlanNode {
  const fields = new Map<string, string>();
  for (const part of raw.split(',')) {
    const at = part.indexOf('=');
    const key = at > 0 ? part.slice(0, at).trim() : part.trim();
    if (!['name', 'link', 'speed', 'builder'].includes(key)) {
      throw new UsageError(`--add-node ${raw}: unknown field \`${key}\``, {
        hint: 'fields are name, link (MB/s), speed (default 1) and builder (default the name)',
      });
    }
    fields.set(key, at > 0 ? part.slice(at + 1).trim() : '');
  }
  const name = fields.get('name');
  if (!name)
    throw new UsageError(`--add-node ${raw}: the node needs a name`, {
      hint: 'write it as name=NAME,link=MBPS[,speed=FACTOR]',
    });
  const linkMbps = toPositive('--add-node', raw, fields.get('link'), 'MB/s');
  const speed = fields.has('speed') ? toPositive('--add-node', raw, fields.get('speed'), 'speed factor') : 1;
  return { name, builder: fields.get('builder') || name, linkMbps, speed };
}

export function parseFleetChanges(raw: RawFleetChanges): FleetChanges {
  return {
    links: parseAssignments('--link', raw.link, 'MB/s'),
    speeds: parseAssignments('--speed', raw.speed, 'speed factor'),
    dropNodes: [...(raw.dropNode ?? [])],
    addNodes: (raw.addNode ?? []).map(parseAddNode),
  };
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
