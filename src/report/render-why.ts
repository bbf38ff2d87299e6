import type { MissCause, RunWhy, TargetSummary } from '../artifacts/index.js';
import { formatSignedSecondsValue } from '../shared/format-units.js';

// Words for `why` (docs/explain.md): one sentence per target that missed, e.g. "build arg ROCM_VERSION 6.4 → 6.5
// changed `RUN build` of pytorch; 3 targets rebuilt after it; +6m12s of makespan (critical path)". Pure; the
// markdown callers make inert (toInertMarkdown), the page escapes it.

const shortDigest = (digest: string | null) =>
  digest === null ? 'none' : digest.replace(/^(sha256:[0-9a-f]{12})[0-9a-f]+$/, '$1');
const code = (text: string) => `\`${text.replaceAll('`', "'").replaceAll('\n', ' ')}\``;

function listFiles(label: string, files: readonly string[]): string[] {
  if (files.length === 0) return [];
  const shown = files.slice(0, 5).join(', ');
  return [`${files.length} ${label} (${shown}${files.length > 5 ? ', …' : ''})`];
}

/** The cause with its old and new values, in words. */
export function formatCause(cause: MissCause): string {
  switch (cause.kind) {
    case 'build-arg':
      return `build arg ${cause.name} ${cause.old ?? '(unset)'} → ${cause.new ?? '(unset)'}`;
    case 'input-image':
      return `input image ${cause.ref} moved ${shortDigest(cause.old)} → ${shortDigest(cause.new)}`;
    case 'instruction':
      return `the Dockerfile instruction ${code(cause.old)} → ${code(cause.new)}`;
    case 'files': {
      const parts = [
        ...listFiles('added', cause.added),
        ...listFiles('removed', cause.removed),
        ...listFiles('changed', cause.changed),
      ];
      return `files under ${code(cause.instruction)}: ${parts.join(', ') || `${cause.count} paths`}`;
    }
    case 'cache-import-empty':
      return `the cache import from ${cause.ref} had nothing (${cause.evidence === 'ref-missing' ? 'the ref is missing' : 'the registry answered the manifest with a miss'})`;
    case 'builder-cache-lost':
      return `builder ${cause.builder} no longer held the cache (${cause.evidence})`;
    case 'dependency-rebuilt':
      return `dependency ${cause.targets.join(', ')} rebuilt`;
    case 'unknown':
      // The settings that would give each are in the run's notes; the sentence names the evidence only.
      return `unknown (not recorded: ${cause.missing.map((m) => m.replace(/ \(.*$/s, '')).join('; ')})`;
  }
}

/** The step as the stream names it, without its `[target stage n/m]` label. */
function stepText(name: string): string {
  return name.replace(/^\[[^\]]*\d+\/\d+\] /, '');
}

/** One sentence for a target that missed; undefined when it did not (or was not explained). */
export function renderWhySentence(
  target: Pick<TargetSummary, 'target' | 'why' | 'onCriticalPath'>,
): string | undefined {
  const why = target.why;
  if (!why?.firstMiss || !why.cause) return undefined;
  const verb = why.cause.kind === 'dependency-rebuilt' ? 'and that changed' : 'changed';
  const head =
    why.cause.kind === 'unknown'
      ? `${code(stepText(why.firstMiss.name))} of ${target.target} ran; cause ${formatCause(why.cause)}`
      : `${formatCause(why.cause)} ${verb} ${code(stepText(why.firstMiss.name))} of ${target.target}`;
  const n = why.rebuiltAfter.length;
  const after =
    n === 0 ? [] : [`${n} target${n === 1 ? '' : 's'} rebuilt after it (${why.rebuiltAfter.join(', ')})`];
  const cost =
    why.costSeconds === null
      ? ['cost not priced']
      : [
          `${formatSignedSecondsValue(why.costSeconds)} of makespan${target.onCriticalPath ? ' (critical path)' : ''}`,
        ];
  return [head, ...after, ...cost].join('; ');
}

/** The markdown section (report.md, diff): one bullet per target that missed, costliest first, then the notes. */
export function renderWhyMd(
  targets: readonly Pick<TargetSummary, 'target' | 'why' | 'onCriticalPath'>[],
  run: RunWhy | null,
): string[] {
  if (!run) return [];
  const missed = targets
    .filter((t) => t.why?.firstMiss)
    .sort(
      (a, b) =>
        (b.why?.costSeconds ?? -Infinity) - (a.why?.costSeconds ?? -Infinity) ||
        a.target.localeCompare(b.target),
    );
  const explained = targets.filter((t) => t.why).length;
  const lines = [
    '## Why targets missed the cache',
    '',
    run.against === null
      ? 'No run to compare with (the previous run of the same lane, harness and arch, or `--against RUN`).'
      : `Against run ${code(run.against)}: ${missed.length} of ${explained} explained targets ran a step the cache did not give.`,
    '',
  ];
  for (const t of missed) lines.push(`- ${renderWhySentence(t)}`);
  if (missed.length > 0) lines.push('');
  for (const note of run.notes) lines.push(`- note: ${note}`);
  if (run.notes.length > 0) lines.push('');
  return lines;
}
