import type { CauseDraft } from './makespan-explanation.js';
import { formatBytes, formatDuration } from '../shared/format-units.js';
import {
  formatMegabytesPerSecond,
  formatPercent,
  formatPreciseSeconds,
  formatSignedSeconds,
  NOT_KNOWN,
} from './format-delta.js';
import type { Delta } from './to-delta.js';

// One cause of a makespan change → one sentence, its share first: `+9m12s triton-wheel build (+31 %, on the
// critical path)`. Pure.

function listSome(items: readonly string[], limit = 3): string {
  const shown = items.slice(0, limit).join(', ');
  return items.length > limit ? `${shown} and ${items.length - limit} more` : shown;
}

function describeChange(figure: Delta, unit: (value: number | null) => string): string {
  return figure.pct !== null ? formatPercent(figure.pct) : `${unit(figure.a)} → ${unit(figure.b)}`;
}

function describeSource(source: { a: string; b: string }): string {
  const notMeasured = (['a', 'b'] as const).filter((side) => source[side] !== 'measured');
  return notMeasured
    .map(
      (side) =>
        `; ${side.toUpperCase()}: ${source[side] === 'link' ? 'link_mbps, it uploaded nothing' : 'no figure'}`,
    )
    .join('');
}

function describePlacement(c: Extract<CauseDraft, { kind: 'placement' }>): string {
  const parts = [
    ...(c.moved.length ? [`${listSome(c.moved.map((m) => `${m.target} ${m.a} → ${m.b}`))}`] : []),
    ...(c.reordered.length
      ? [
          `${listSome(c.reordered)} ran ${c.reordered.length === 1 ? 'its' : 'their'} targets in another order`,
        ]
      : []),
    ...(c.waitsChanged.length ? [`other waits for ${listSome(c.waitsChanged)}`] : []),
  ];
  return parts.join('; ');
}

function describeWaiting(c: Extract<CauseDraft, { kind: 'waiting' }>): string {
  const delays = [...c.startDelaySeconds].sort(
    (x, y) => Math.abs(y.b - y.a) - Math.abs(x.b - x.a) || x.node.localeCompare(y.node),
  );
  const largest = delays[0];
  const parts = [
    ...(largest
      ? [
          `start delay ${largest.node} ${formatPreciseSeconds(largest.a)} → ${formatPreciseSeconds(largest.b)}${delays.length > 1 ? ` (and ${delays.length - 1} more ${delays.length === 2 ? 'node' : 'nodes'})` : ''}`,
        ]
      : []),
    `start lags the model does not explain ${formatPreciseSeconds(c.startLagSeconds.a)} → ${formatPreciseSeconds(c.startLagSeconds.b)} in total`,
  ];
  return parts.join('; ');
}

export function renderCauseSentence(c: CauseDraft, actual: Delta): string {
  const share = formatSignedSeconds(c.shareSeconds);
  switch (c.kind) {
    case 'build': {
      const path = `${c.onCriticalPath ? 'on' : 'off'} the critical path`;
      const change = describeChange(c.buildSeconds, (seconds) => formatDuration(seconds, NOT_KNOWN));
      if (c.uploadBytes.delta === null || c.uploadBytes.delta === 0)
        return `${share} ${c.target} build (${change}, ${path})`;
      return `${share} ${c.target} build and upload bytes (build ${change}, uploads ${formatBytes(c.uploadBytes.a, NOT_KNOWN)} → ${formatBytes(c.uploadBytes.b, NOT_KNOWN)}, ${path})`;
    }
    case 'upload-throughput':
      return `${share} ${c.node} upload throughput (${formatMegabytesPerSecond(c.bytesPerSecond.a)} → ${formatMegabytesPerSecond(c.bytesPerSecond.b)} MB/s${describeSource(c.source)})`;
    case 'placement':
      return `${share} placement or dispatch (${describePlacement(c)})`;
    case 'waiting':
      return `${share} waiting on dependencies or bootstrap (${describeWaiting(c)})`;
    case 'other': {
      const leftOut = c.leftOut.length ? `; includes ${listSome(c.leftOut)}, left out of the replays` : '';
      const precise = { precise: true };
      return `${share} other: the measured change (${formatSignedSeconds(actual.delta ?? 0, precise)}) less the modelled one (${formatSignedSeconds(c.modelledSeconds, precise)})${leftOut}`;
    }
  }
}
