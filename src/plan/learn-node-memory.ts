// `rocm-perf costs`: each node's memory as the runs saw it (data.json `nodes[].usage.memoryBytes`: MemTotal from the
// node's samples where fleet.yaml has no memory_gb) against fleet.yaml's `memory_gb`. A node without memory_gb gets
// one suggested, so the planner's memory rule (docs/planning.md) can hold there; a configured memory_gb is never
// changed (it may be set below MemTotal on purpose). Pure.

const GiB = 2 ** 30;

export interface MemoryObservation {
  node: string;
  bytes: number;
}

export interface MemoryFinding {
  node: string;
  configuredGb: number | undefined;
  /** The least memory any run saw on the node, GiB. */
  measuredGb: number;
  runs: number;
  /** memory_gb to write: the measured figure rounded down to 0.1 GiB; undefined when fleet.yaml sets one. */
  suggestedGb: number | undefined;
}

export function learnNodeMemory({
  observations,
  nodes,
}: {
  observations: readonly MemoryObservation[];
  nodes: readonly { name: string; memoryBytes?: number | undefined }[];
}): MemoryFinding[] {
  const byNode = new Map<string, number[]>();
  for (const { node, bytes } of observations)
    if (bytes > 0) byNode.set(node, [...(byNode.get(node) ?? []), bytes]);
  return nodes.flatMap((node): MemoryFinding[] => {
    const seen = byNode.get(node.name);
    if (!seen) return [];
    const measuredGb = Math.min(...seen) / GiB;
    const configuredGb = node.memoryBytes === undefined ? undefined : node.memoryBytes / GiB;
    const floor = Math.floor(measuredGb * 10) / 10;
    return [
      {
        node: node.name,
        configuredGb,
        measuredGb,
        runs: seen.length,
        suggestedGb: configuredGb === undefined && floor > 0 ? floor : undefined,
      },
    ];
  });
}

/** One line per node for `costs`' fleet section. */
export function renderMemoryFinding(finding: MemoryFinding): string {
  const measured = `${Number(finding.measuredGb.toPrecision(3))} GiB over ${finding.runs} run${finding.runs === 1 ? '' : 's'}`;
  if (finding.suggestedGb !== undefined)
    return `${finding.node}: memory_gb not set → ${finding.suggestedGb} (MemTotal ${measured})`;
  return `${finding.node}: memory_gb ${finding.configuredGb}, the runs saw ${measured}; kept: set in fleet.yaml`;
}
