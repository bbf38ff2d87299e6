import type { DataFile, NodeUsage, TargetUsage } from '../artifacts/index.js';
import { formatBytes, formatDuration } from '../shared/format-units.js';

// The cells of the "What each step used" tables (report.md and the page): a row per RUN step of each target, then
// each node's totals beside its memory. Pure. Null when no step was measured.

type Figures = Pick<
  TargetUsage,
  'cpuSeconds' | 'memoryPeakBytes' | 'ioReadBytes' | 'ioWriteBytes' | 'pidsPeak' | 'oomEvents'
>;

export interface UsageRows {
  stepHead: string[];
  stepRows: string[][];
  nodeHead: string[];
  nodeRows: string[][];
}

const dash = '—';
const FIGURE_HEAD = ['CPU', 'memory peak', 'IO read / write', 'pids peak', 'OOM kills'];

const formatCount = (count: number | null) => (count === null ? dash : String(count));
const formatIo = (figures: Figures) =>
  figures.ioReadBytes === null && figures.ioWriteBytes === null
    ? dash
    : `${formatBytes(figures.ioReadBytes)} / ${formatBytes(figures.ioWriteBytes)}`;

const figureCells = (figures: Figures) => [
  formatDuration(figures.cpuSeconds),
  formatBytes(figures.memoryPeakBytes),
  formatIo(figures),
  formatCount(figures.pidsPeak),
  formatCount(figures.oomEvents),
];

/** The step's name without its stage prefix, cut to fit a table cell. */
const shortName = (name: string) => {
  const text = name.replace(/^(?:\[[^\]]*\] )+/, '');
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
};

const formatMemory = (usage: NodeUsage) =>
  usage.memoryBytes === null ? `${dash} (set memory_gb)` : formatBytes(usage.memoryBytes);

export function buildUsageRows({ summary }: DataFile): UsageRows | null {
  const measured = summary.targets.filter((t) => t.usage !== null);
  if (measured.length === 0) return null;
  return {
    stepHead: ['target', 'step', 'source', ...FIGURE_HEAD, 'flags'],
    stepRows: measured.flatMap((t) =>
      (t.usage?.steps ?? []).map((step) => [
        t.target,
        shortName(step.name),
        step.source,
        ...figureCells(step),
        step.flags.join(', ') || dash,
      ]),
    ),
    nodeHead: ['node', ...FIGURE_HEAD, 'node memory'],
    nodeRows: summary.nodes.flatMap((n) =>
      n.usage === null ? [] : [[n.node, ...figureCells(n.usage), formatMemory(n.usage)]],
    ),
  };
}

/** One paragraph on what the figures are, for both renderings. */
export const USAGE_LEGEND =
  'Per RUN step: CPU seconds (user + system), the memory peak of its container, IO bytes, the most processes at once and OOM kills. source buildkit: BuildKit’s own provenance samples; cgroup: the step container’s cgroup, read over the node’s ssh link while it ran (CPU after its last poll is not counted; docs/step-usage.md). A target’s and a node’s memory peak is their largest step’s.';
