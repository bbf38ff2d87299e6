// The spec's cost model: a target on a node costs its build time (÷ the node's speed) plus its export over the
// node's uplink. Both terms are kept apart so the plan can show which one dominates.

/** What the packer needs to know about a node. */
export interface PlanNode {
  name: string;
  builder: string;
  /** Upload throughput to the registry/cache store, MB/s (MB = 10^6 bytes). */
  linkMbps: number;
  /** Divides build seconds; 1 = reference speed. */
  speed: number;
  /** The node's memory in bytes (fleet.yaml `memory_gb`); absent: unknown, every target fits. */
  memoryBytes?: number | undefined;
}

/** Measured cost of one target, node-independent. */
export interface TargetCostFigures {
  buildSeconds: number;
  cacheBytes: number;
}

/** Build term: build_t / speed_n. */
export function toBuildSeconds(cost: TargetCostFigures, node: PlanNode): number {
  return cost.buildSeconds / node.speed;
}

/** Export term: cache_t / (link_mbps_n × 10^6). */
export function toExportSeconds(cost: TargetCostFigures, node: PlanNode): number {
  return cost.cacheBytes / (node.linkMbps * 1e6);
}
