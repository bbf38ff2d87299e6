import type { DataFile, NodeUsage, TargetUsage } from '../artifacts/index.js';
import { formatBytes } from './format-units.js';

// report.md's "What each step used" section (docs/step-usage.md): a row per RUN step of each target, then each
// node's totals beside its memory. Pure. Absent when no step was measured.

type Figures = Pick<
  TargetUsage,
  'cpuSeconds' | 'memoryPeakBytes' | 'ioReadBytes' | 'ioWriteBytes' | 'pidsPeak' | 'oomEvents'
>;

const dash = '—';
const formatCpu = (seconds: number | null) =>
  seconds === null ? dash : `${seconds.toFixed(seconds < 10 ? 2 : 1)} s`;
const formatCount = (count: number | null) => (count === null ? dash : String(count));
const formatIo = (figures: Figures) =>
  figures.ioReadBytes === null && figures.ioWriteBytes === null
    ? dash
    : `${formatBytes(figures.ioReadBytes)} / ${formatBytes(figures.ioWriteBytes)}`;

const figureCells = (figures: Figures) => [
  formatCpu(figures.cpuSeconds),
  figures.memoryPeakBytes === null ? dash : formatBytes(figures.memoryPeakBytes),
  formatIo(figures),
  formatCount(figures.pidsPeak),
  formatCount(figures.oomEvents),
];

const escape = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const row = (cells: readonly string[]) => `| ${cells.map(escape).join(' | ')} |`;

/** The step's name without its stage prefix, cut to fit a table cell. */
const shortName = (name: string) => {
  const text = name.replace(/^(?:\[[^\]]*\] )+/, '');
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
};

export function renderUsageMd({ summary }: DataFile, harness: string): string[] {
  const measured = summary.targets.filter((t) => t.usage !== null);
  if (measured.length === 0) return [];
  const head = ['CPU', 'memory peak', 'IO read / write', 'pids peak', 'OOM kills'];
  const stepRows = measured.flatMap((t) =>
    (t.usage?.steps ?? []).map((step) =>
      row([
        t.target,
        `\`${shortName(step.name)}\``,
        step.source,
        ...figureCells(step),
        step.flags.join(', ') || dash,
      ]),
    ),
  );
  const nodeRows = summary.nodes.flatMap((n) =>
    n.usage === null ? [] : [row([n.node, ...figureCells(n.usage), formatMemory(n.usage)])],
  );
  return [
    `## What each step used (${harness})`,
    '',
    'Per RUN step: CPU seconds (user + system), the memory peak of its container, IO bytes, the most processes at once and OOM kills. source `buildkit`: BuildKit’s own provenance samples; `cgroup`: the step container’s cgroup, read over the node’s ssh link while it ran (its CPU after the last poll is not counted: docs/step-usage.md). A target’s memory peak is its largest step’s.',
    '',
    row(['target', 'step', 'source', ...head, 'flags']),
    row(['---', '---', '---', ...head.map(() => '---'), '---']),
    ...stepRows,
    '',
    row(['node', ...head, 'node memory']),
    row(['---', ...head.map(() => '---'), '---']),
    ...nodeRows,
    '',
  ];
}

function formatMemory(usage: NodeUsage): string {
  return usage.memoryBytes === null ? `${dash} (set memory_gb)` : formatBytes(usage.memoryBytes);
}
