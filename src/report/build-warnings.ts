import { type RunInputs, type StreamInput } from '../run-dir/index.js';
import {
  findStreamWarnings,
  type ReportWarning,
  type StreamSummary,
  type Summary,
  type TargetSummary,
} from '../artifacts/index.js';
import type { RunFile } from '../artifacts/index.js';

import { buildSampleGapWarnings } from './find-sample-gaps.js';
import { findStreamDamage } from './find-stream-damage.js';
import type { SampleShortfall } from './find-sample-shortfall.js';

// Loud warnings are the ones where a figure in the report may be a silent 0 or short: a stream with bytes but no
// records, a present-but-empty stream, a damaged stream (shorter or longer than run.json recorded, a cut last line,
// rejected lines, unreadable), a finished target without its trace, a cold run touching the live cache.
// `report`, `diff` and `export` exit 1 when any is loud.

export interface StreamSummaryOptions {
  stream: StreamInput;
  run: RunFile | undefined;
  inFlight: boolean;
}

export function buildStreamSummary({ stream, run, inFlight }: StreamSummaryOptions): StreamSummary {
  const { stats } = stream;
  const drift =
    stream.listsNothing === true || stream.unreadable !== undefined || stats.records > 0
      ? []
      : findStreamWarnings(stats);
  const damage = findStreamDamage({ stream, run, inFlight });
  const warnings = stream.present ? [...drift, ...(stream.extraWarnings ?? []), ...damage] : damage;
  if (stream.present && stats.bytes === 0 && !inFlight && stream.unreadable === undefined) {
    warnings.unshift(`${stream.name}: present but empty (0 bytes); every figure drawn from it would read 0`);
  }
  return {
    source: stats.source,
    present: stream.present,
    bytes: stats.bytes,
    lines: stats.lines,
    records: stats.records,
    skipped: stats.skipped,
    rejected: stats.rejected,
    skippedByReason: stats.skippedByReason,
    rejectedExamples: stats.rejectedExamples.slice(0, 5),
    warnings,
  };
}

export interface WarningsOptions {
  inputs: RunInputs;
  streams: Record<string, StreamSummary>;
  targets: readonly TargetSummary[];
  sccache: Summary['sccache'];
  registry: Summary['registry'];
  inFlight: boolean;
  /** Nodes whose samples.jsonl lines are missing over part of the makespan. */
  sampleShortfall?: SampleShortfall | undefined;
}

/** What each run-dir file a .dockerbuild cannot give holds, said in its note (docs/dockerbuild.md). */
const ABSENT_FROM_RECORD: Readonly<Record<string, string>> = {
  'samples.jsonl': 'node samples',
  'sccache.log': 'sccache log',
  'zot.jsonl': 'registry log',
  'artifacts.txt': 'list of published artifacts',
};

export function buildWarnings(options: WarningsOptions): ReportWarning[] {
  return [
    ...streamWarnings(options),
    ...targetWarnings(options),
    ...cacheWarnings(options),
    ...runWarnings(options),
    ...checkWarnings(options),
    ...(options.sampleShortfall
      ? [{ level: 'loud', stream: 'samples.jsonl', message: options.sampleShortfall.message } as const]
      : []),
    ...buildSampleGapWarnings(options.inputs.samples),
  ];
}

function streamWarnings({ streams, inputs, inFlight }: WarningsOptions): ReportWarning[] {
  const warnings: ReportWarning[] = [];
  for (const [name, stream] of Object.entries(streams)) {
    for (const message of stream.warnings) warnings.push({ level: 'loud', stream: name, message });
    if (!stream.present && stream.warnings.length === 0 && !name.startsWith('trace-') && !inFlight) {
      warnings.push({
        level: 'note',
        stream: name,
        message:
          inputs.run?.imported?.from === 'dockerbuild'
            ? `${name}: not recorded in a .dockerbuild (a build record holds no ${ABSENT_FROM_RECORD[name] ?? 'such file'}); its figures are absent, not 0`
            : `${name}: not in the run dir; its figures are absent, not 0`,
      });
    }
  }
  for (const stream of inputs.streams.filter((one) => one.present && one.listsNothing === true))
    warnings.push({
      level: 'note',
      stream: stream.name,
      message: describeNothingListed(stream.name, inputs.run?.status),
    });
  if (!inputs.run) {
    warnings.push({
      level: 'note',
      stream: 'run.json',
      message: 'run.json absent: harness unknown, nodes not attributed',
    });
  }
  return warnings;
}

/** What an empty list means, said plainly for the run's status. */
function describeNothingListed(name: string, status: string | undefined): string {
  if (status === 'interrupted')
    return `${name} lists nothing: the run was interrupted before anything was published`;
  if (status === 'running') return `${name} lists nothing yet: it is written when the run finishes`;
  return `${name} lists nothing: no target published an artifact`;
}

function targetWarnings({ targets, inputs }: WarningsOptions): ReportWarning[] {
  const traced = new Set(inputs.traces.map((t) => t.target));
  // A trace the trust checks left out already has its WARNING, naming why.
  const leftOut = new Set(inputs.streams.filter((s) => (s.damage ?? []).length > 0).map((s) => s.name));
  const warnings: ReportWarning[] = [];
  for (const target of targets) {
    const finished = target.status === 'ok' || target.status === 'failed';
    if (finished && !traced.has(target.target) && !leftOut.has(`trace-${target.target}.json`)) {
      const outcome = inputs.run?.targets[target.target];
      const why =
        outcome?.status === 'failed'
          ? `${target.target} failed (${outcome.error.split('\n')[0]?.slice(0, 160) ?? ''}) and no record of the build could be read from its builder`
          : 'missing for a finished target';
      warnings.push({
        level: 'loud',
        stream: `trace-${target.target}.json`,
        message: `trace-${target.target}.json: ${why}; its build/total/upload figures are unknown`,
      });
    }
    if (target.status === 'interrupted' && !traced.has(target.target)) {
      warnings.push({
        level: 'note',
        stream: `trace-${target.target}.json`,
        message: `${target.target} was cancelled by the interrupt and its builder kept no readable record: how far it got is unknown`,
      });
    }
    if ((target.uploadsWithoutSize ?? 0) > 0) {
      warnings.push({
        level: 'note',
        stream: `trace-${target.target}.json`,
        message: `${target.target}: ${target.uploadsWithoutSize} upload spans carry no size; uploadBytes counts the others only`,
      });
    }
  }
  return warnings;
}

function cacheWarnings({ inputs, sccache, registry }: WarningsOptions): ReportWarning[] {
  const warnings: ReportWarning[] = [];
  const outside = sccache.outsidePrefix;
  if (inputs.run?.harness === 'cold' && outside.hits + outside.writes > 0) {
    warnings.push({
      level: 'loud',
      stream: 'sccache.log',
      message:
        `cold run touched the cache outside its prefix ${sccache.prefix ?? '?'}: ${outside.hits} hits, ${outside.writes} writes;` +
        ' a cold run must neither hit nor evict the live cache',
    });
  }
  if (registry.writesWithoutSize > 0) {
    warnings.push({
      level: 'note',
      stream: 'zot.jsonl',
      message: `${registry.writesWithoutSize} registry writes carry no size; bytesWritten counts the others only`,
    });
  }
  return warnings;
}

function runWarnings({ inputs }: WarningsOptions): ReportWarning[] {
  return (inputs.run?.warnings ?? []).map((message) => ({ level: 'note', stream: 'run.json', message }));
}

/** The trust checks outside the streams (plan.json, recorded files no figure reads) and their notes. */
function checkWarnings({ inputs }: WarningsOptions): ReportWarning[] {
  const checks = inputs.checks;
  if (checks === undefined) return [];
  return [
    ...checks.loud.map(({ file, message }) => ({ level: 'loud', stream: file, message }) as const),
    ...checks.notes.map(({ file, message }) => ({ level: 'note', stream: file, message }) as const),
  ];
}
