import type { RunDiff } from './build-run-diff.js';
import { formatDelta } from './format-delta.js';
import { formatBytes, formatDuration } from '../shared/format-units.js';

// diff's "What each target used" table (docs/step-usage.md): CPU seconds and memory peak of each target's RUN
// steps in A and B, largest CPU change first. Pure. Nothing when neither run measured step usage.

const cpu = (seconds: number | null) => (seconds === null ? '—' : formatDuration(seconds));
const mb = (bytes: number | null) => (bytes === null ? '—' : formatBytes(bytes));

export function renderUsageDiffMd(diff: RunDiff): string[] {
  const measured = diff.targets.filter((t) => t.usage.cpuSeconds.a !== null || t.usage.cpuSeconds.b !== null);
  if (measured.length === 0) return [];
  const sorted = [...measured].sort(
    (x, y) =>
      Math.abs(y.usage.cpuSeconds.delta ?? 0) - Math.abs(x.usage.cpuSeconds.delta ?? 0) ||
      x.target.localeCompare(y.target),
  );
  return [
    '',
    '## What each target used (RUN steps)',
    '',
    '| target | CPU A → B | ΔCPU | memory peak A → B | Δpeak | flags A → B |',
    '|---|---|---:|---|---:|---|',
    ...sorted.map(({ target, usage }) => {
      const flags = `${usage.flags.a.join(', ') || '—'} → ${usage.flags.b.join(', ') || '—'}`;
      return `| ${target} | ${cpu(usage.cpuSeconds.a)} → ${cpu(usage.cpuSeconds.b)} | ${formatDelta(usage.cpuSeconds, 'seconds')} | ${mb(usage.memoryPeakBytes.a)} → ${mb(usage.memoryPeakBytes.b)} | ${formatDelta(usage.memoryPeakBytes, 'bytes')} | ${flags} |`;
    }),
  ];
}
