import { formatCount } from '../shared/format-units.js';
import { type StreamInput } from '../run-dir/index.js';
import type { RunFile, StreamStats } from '../artifacts/index.js';

// A run's input files checked against what the run recorded about them (run.json's log slices and their sizes) and
// against themselves (a cut last line, rejected lines, an unreadable file). Each finding is one message naming the
// file and what is missing; the model turns them into loud warnings and marks the figures drawn from the file as
// partial. Pure.

export interface FindStreamDamageOptions {
  stream: StreamInput;
  run: RunFile | undefined;
  /** While the run is in flight its files are still growing: sizes and a last line in flight are not damage. */
  inFlight: boolean;
}

const plural = (n: number, word: string) => `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;

/** What the file lacks against run.json's record of its slice: fewer or more bytes, or the capture's own warning. */
function findSliceShortfall({ stream, run, inFlight }: FindStreamDamageOptions): string[] {
  const slice = run?.logs?.find((entry) => entry.file === stream.name);
  if (slice === undefined || inFlight || stream.unreadable !== undefined) return [];
  const messages: string[] = [];
  const recorded = slice.sizeBytes;
  const bytes = stream.stats.bytes;
  if (!stream.present && recorded > 0)
    messages.push(
      `${stream.name}: absent, but run.json recorded a ${formatCount(recorded)}-byte slice of ${slice.remotePath}; every figure from it is missing`,
    );
  else if (stream.present && bytes < recorded)
    messages.push(
      `${stream.name}: ${formatCount(bytes)} of the ${plural(recorded, 'byte')} run.json recorded for this slice (${plural(recorded - bytes, 'byte')} missing: the file was cut short after the run); its figures count only what is left`,
    );
  else if (stream.present && bytes > recorded)
    messages.push(
      `${stream.name}: ${formatCount(bytes)} bytes, but run.json recorded ${plural(recorded, 'byte')} for this slice (${plural(bytes - recorded, 'byte')} more: the file was edited or appended to after the run); its figures may count lines the run never logged`,
    );
  if (slice.warning !== undefined)
    messages.push(`${stream.name}: the capture recorded bytes missing from the slice: ${slice.warning}`);
  return messages;
}

/** Lines the parser could not use: rejected lines (with where), a cut last line, lines of no known format. */
function findLineDamage({ stream, inFlight }: Omit<FindStreamDamageOptions, 'run'>): string[] {
  const { stats } = stream;
  if (!stream.present || stream.unreadable !== undefined || stats.records === 0) return [];
  const messages: string[] = [];
  if (stats.rejected > 0) messages.push(describeRejected(stream.name, stats));
  const cut = stats.skippedByReason['unterminated last line'] ?? 0;
  if (cut > 0 && !inFlight)
    messages.push(
      `${stream.name}: the last line is cut off (no newline, and what is there does not parse): the file was truncated; its figures miss at least that line`,
    );
  const notJson = stream.unexpectedSkips
    ?.map((reason) => [reason, stats.skippedByReason[reason] ?? 0] as const)
    .filter(([, count]) => count > 0);
  for (const [reason, count] of notJson ?? [])
    messages.push(
      `${stream.name}: ${plural(count, 'line')} skipped as "${reason}", which this log format never writes (garbage in the file?); its figures miss whatever those lines held`,
    );
  return messages;
}

function describeRejected(name: string, stats: StreamStats): string {
  const where = stats.rejectedExamples
    .slice(0, 3)
    .map((example) => `line ${example.line}: ${example.reason}`)
    .join('; ');
  const more = stats.rejected > 3 ? `; ${formatCount(stats.rejected - 3)} more` : '';
  return `${name}: ${plural(stats.rejected, 'line')} rejected (${where}${more}); its figures miss what those lines held`;
}

/** Every damage finding of one stream, slice shortfall first. */
export function findStreamDamage(options: FindStreamDamageOptions): string[] {
  const unreadable =
    options.stream.unreadable === undefined
      ? []
      : [
          `${options.stream.name}: cannot be read (${options.stream.unreadable}); every figure from it is missing`,
        ];
  return [
    ...unreadable,
    ...(options.stream.damage ?? []),
    ...findSliceShortfall(options),
    ...findLineDamage(options),
  ];
}
