import type { RunFile } from '../artifacts/index.js';
import type { FleetNode } from '../config/index.js';

// Whether a run was recorded on the fleet `costs --from` would teach. run.json keeps each node as fleet.yaml
// described it when the run started (name, builder, address, link_mbps, speed): a run whose nodes sit elsewhere
// (another fleet, e.g. the fleet in a box) or are rated differently (another scale, whose seconds and bytes are
// scaled too) must not rewrite this fleet's costs or links.

type RecordedNode = RunFile['nodes'][number];

function describeNode(recorded: RecordedNode, current: FleetNode): string[] {
  const differences: string[] = [];
  if (recorded.builder !== current.builder)
    differences.push(`builder ${recorded.builder} (fleet.yaml: ${current.builder})`);
  if (recorded.address !== current.address)
    differences.push(`address ${recorded.address ?? 'none'} (fleet.yaml: ${current.address ?? 'none'})`);
  if (recorded.linkMbps !== current.linkMbps)
    differences.push(`link_mbps ${recorded.linkMbps} (fleet.yaml: ${current.linkMbps})`);
  if (recorded.speed !== current.speed)
    differences.push(`speed ${recorded.speed} (fleet.yaml: ${current.speed})`);
  return differences.length === 0 ? [] : [`${recorded.name}: ${differences.join(', ')}`];
}

// Pure: what differs between the fleet a run recorded and fleet.yaml's, one phrase each; [] when it is this fleet.
export function findFleetDifferences(
  run: Pick<RunFile, 'nodes'>,
  current: { nodes: readonly FleetNode[] },
): string[] {
  const differences: string[] = [];
  const byName = new Map(current.nodes.map((node) => [node.name, node]));
  const recordedNames = new Set(run.nodes.map((node) => node.name));
  const extra = run.nodes.filter((node) => !byName.has(node.name)).map((node) => node.name);
  const missing = current.nodes.filter((node) => !recordedNames.has(node.name)).map((node) => node.name);
  if (extra.length > 0) differences.push(`nodes not in fleet.yaml: ${extra.join(', ')}`);
  if (missing.length > 0) differences.push(`fleet.yaml nodes the run did not have: ${missing.join(', ')}`);
  for (const recorded of run.nodes) {
    const node = byName.get(recorded.name);
    if (node) differences.push(...describeNode(recorded, node));
  }
  return differences;
}
