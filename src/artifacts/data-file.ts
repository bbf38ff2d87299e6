import { z } from 'zod';
import {
  AdviceSchema,
  NodeUsageSchema,
  RunWhySchema,
  TargetUsageSchema,
  TargetWhySchema,
} from './explain-file.js';
import { DispatchModeSchema } from './run-file.js';

// data.json: the report's model, written by `report` and `serve`, read by the page (the same schema is bundled
// into the page, so "the page accepts what report writes" is one schema, tested on both sides). Documented in
// docs/data-json.md. Every number in it was produced by `run.harness`.

export const DATA_VERSION = 4;

/** The run checks (docs/damaged-runs.md) a model was built under; a stored data.json without them is rebuilt. */
export const RUN_CHECKS_VERSION = 1;

const HarnessLabelSchema = z.enum(['cold', 'warm', 'bench', 'unknown']);

const PhaseSchema = z
  .enum(['setup', 'steps', 'upload', 'export', 'running'])
  .describe('running: the target is in flight and its build record has not landed yet.');
export type Phase = z.infer<typeof PhaseSchema>;

const Seconds = z.number().finite().min(0);
const Ms = z.number().finite();
const Count = z.number().int().min(0);

/** The input files whose damage (a shortfall, a cut last line, rejected lines, unreadable) leaves a figure partial. */
const Partial = z
  .array(z.string())
  .describe(
    'Input files (e.g. `zot.jsonl`, `trace-pytorch.json`) whose damage leaves these figures partial; the warnings say what is missing. Empty: complete.',
  );

const RunInfoSchema = z.strictObject({
  stamp: z.string().describe('Run directory name, e.g. 20260314T092100Z.'),
  harness: HarnessLabelSchema.describe(
    'Which harness produced every number here; `unknown` when run.json is absent.',
  ),
  lane: z
    .string()
    .describe('Where the run was recorded: `fleet` for this fleet, else the lane `rocm-perf import` named.'),
  namespace: z.string().nullable().describe('Registry namespace the run pushed into; null when unknown.'),
  arch: z.string().nullable(),
  status: z.enum(['running', 'completed', 'failed', 'interrupted', 'unknown']),
  startedAtMs: Ms.nullable().describe('Start of the measured run (after bootstrap), epoch ms.'),
  finishedAtMs: Ms.nullable(),
  hasRunFile: z.boolean(),
  hasPlanFile: z.boolean(),
  runChecks: z
    .number()
    .int()
    .optional()
    .describe(
      'Version of the run checks (digests, plausibility) the model was built under; absent in data.json written before them, which diff, export and trends rebuild.',
    ),
  strategy: z.string().nullable().describe('Placement strategy from plan.json.'),
  dispatch: DispatchModeSchema.nullable().describe(
    'How targets were dispatched (run.json; absent there means fixed); null without run.json.',
  ),
  artifacts: z.array(z.string()).describe('Lines of artifacts.txt: what ended up published.'),
  samples: z
    .strictObject({
      source: z.enum(['node_exporter', 'prometheus']),
      intervalMs: z.number().positive(),
      prometheusUrl: z.string().nullable(),
    })
    .nullable()
    .default(null)
    .describe(
      'Where the CPU, memory, disk and network samples came from (run.json); null when not recorded (older runs).',
    ),
});

export type RunInfo = z.infer<typeof RunInfoSchema>;

const TargetSummarySchema = z.strictObject({
  target: z.string(),
  node: z.string().describe('Node that ran it (run.json, else plan.json, else `unknown`).'),
  builder: z.string(),
  status: z.enum(['ok', 'failed', 'interrupted', 'running', 'pending', 'skipped', 'unknown']),
  startMs: Ms.nullable().describe('Start of the build record, epoch ms.'),
  endMs: Ms.nullable(),
  buildSeconds: Seconds.nullable().describe('Span of the target’s own steps; null until its trace is read.'),
  totalSeconds: Seconds.nullable().describe('The whole build record; null until its trace is read.'),
  exportSeconds: Seconds.nullable().describe(
    'totalSeconds − buildSeconds: setup plus export, uploads included.',
  ),
  uploadSeconds: Seconds.nullable().describe('Union of the HTTP PUT/POST spans (registry uploads).'),
  setupExportSeconds: Seconds.nullable().describe(
    'The gap not spent uploading: exportSeconds − uploadSeconds, at least 0. build + upload + setup/export = total.',
  ),
  uploadBytes: Count.nullable().describe('Bytes of the uploads whose size the trace recorded.'),
  uploadsWithoutSize: Count.nullable().describe(
    'Upload spans with no recorded size (not counted in uploadBytes).',
  ),
  cachedSteps: Count.nullable(),
  totalSteps: Count.nullable(),
  plannedNode: z.string().nullable(),
  plannedStartSeconds: Seconds.nullable().describe('From plan.json, seconds after the measured start.'),
  plannedFinishSeconds: Seconds.nullable(),
  onCriticalPath: z.boolean().describe('On the measured critical path.'),
  usage: TargetUsageSchema.nullable()
    .default(null)
    .describe('What its RUN steps used (docs/explain.md); null when no source recorded it.'),
  why: TargetWhySchema.nullable()
    .default(null)
    .describe(
      'Why its first uncached step ran and what that cost (docs/explain.md); null when not explained.',
    ),
  partial: Partial,
});
export type TargetSummary = z.infer<typeof TargetSummarySchema>;

const NodeSummarySchema = z.strictObject({
  node: z.string(),
  builder: z.string(),
  targets: z.array(z.string()),
  busySeconds: Seconds.describe('Union of its targets’ records within the makespan.'),
  idleSeconds: Seconds,
  utilisationPct: z.number().min(0).max(100).nullable(),
  cpuMeanPct: z.number().nullable().describe('Mean CPU busy % over the makespan, from samples.jsonl.'),
  cpuPeakPct: z.number().nullable(),
  memPeakPct: z.number().nullable(),
  samples: Count,
  sampleGaps: Count.describe('Scrapes that failed (ok: false).'),
  measuredUploadMBps: z
    .number()
    .finite()
    .min(0)
    .nullable()
    .default(null)
    .describe(
      'Effective upload throughput: bytes the node uploaded ÷ the union of its upload spans, in MB/s (1 MB = 10^6 bytes), over its ok targets whose every upload has a size (per-request latency included: not the link rate, see `upload`); null without such uploads or without run.json.',
    ),
  upload: z
    .strictObject({
      requests: Count.describe('Sized upload requests (HTTP PUT/POST/PATCH spans) of its ok targets.'),
      latencyMs: z.number().finite().describe('The per-request cost: median of duration − load ÷ rate, ms.'),
      noiseMs: z
        .number()
        .finite()
        .min(0)
        .describe('How far single requests stray from the fit: 1.4826 × the median absolute residual, ms.'),
      rateMBps: z
        .number()
        .finite()
        .positive()
        .nullable()
        .describe('The fitted link rate, MB/s; null when request time does not grow with bytes.'),
      wireBound: Count.describe(
        'Requests whose bytes took at least 3× the per-request cost and 0.1 s at the fitted rate: under 2, the rate is not known.',
      ),
      largestLoadBytes: z.number().finite().min(0).describe('The most bytes on the link during one request.'),
    })
    .nullable()
    .default(null)
    .describe(
      'The node’s upload requests fitted as latency + bytes ÷ rate (docs/planning.md); null without sized uploads or run.json.',
    ),
  configuredLinkMbps: z
    .number()
    .positive()
    .nullable()
    .default(null)
    .describe(
      'The link_mbps run.json recorded for the node (what the plan assumed); null without run.json or for a node not in it.',
    ),
  usage: NodeUsageSchema.nullable()
    .default(null)
    .describe(
      'Totals of its targets’ step usage and its memory (docs/explain.md); null when none was recorded.',
    ),
  partial: Partial.describe(
    'samples.jsonl when its figures for this node are damaged or short; trace files of its targets when busy/idle are.',
  ),
});
export type NodeSummary = z.infer<typeof NodeSummarySchema>;

const SccacheCountsSchema = z.strictObject({
  hits: Count,
  misses: Count,
  writes: Count,
  bytesRead: Count,
  bytesWritten: Count,
});
export type SccacheCounts = z.infer<typeof SccacheCountsSchema>;

const RegistryCountsSchema = z.strictObject({
  bytesWritten: Count,
  blobsWritten: Count,
  manifestsWritten: Count,
});
export type RegistryCounts = z.infer<typeof RegistryCountsSchema>;

const StreamSummarySchema = z.strictObject({
  source: z.string(),
  present: z.boolean(),
  bytes: Count,
  lines: Count,
  records: Count,
  skipped: Count,
  rejected: Count,
  skippedByReason: z.record(z.string(), Count),
  rejectedExamples: z.array(z.strictObject({ line: z.number().int(), reason: z.string() })),
  warnings: z.array(z.string()),
});
export type StreamSummary = z.infer<typeof StreamSummarySchema>;

const WarningSchema = z.strictObject({
  level: z
    .enum(['loud', 'note'])
    .describe('loud: a number in this report may be a silent 0; `report` exits 1.'),
  stream: z.string().nullable(),
  message: z.string(),
});
export type ReportWarning = z.infer<typeof WarningSchema>;

const BandSecondsSchema = z.strictObject({ p10: Seconds, p50: Seconds, p90: Seconds });

const ForecastSummarySchema = z
  .strictObject({
    planned: BandSecondsSchema.nullable().describe(
      'The makespan forecast made with the plan (plan.json `forecast`); null when no band is shown (too little history).',
    ),
    banded: z
      .boolean()
      .describe('False when some target had fewer than 3 runs of history: no band is shown.'),
    historyRuns: Count.describe('The fewest runs behind any target’s cost figures.'),
    thinTargets: z.array(z.string()),
    draws: Count,
    policy: z.enum(['fixed', 'guided']),
    placedFor: z.enum(['median', 'p90']),
    live: BandSecondsSchema.extend({
      atSeconds: Seconds.describe('Seconds into the run the forecast was conditioned at.'),
    })
      .nullable()
      .describe('While running: the band conditioned on what finished and what is running; null otherwise.'),
    percentile: z
      .number()
      .min(0)
      .max(100)
      .nullable()
      .describe('Where the measured makespan landed in the planned forecast, 0–100; null until completed.'),
    outside: z
      .enum(['above', 'below'])
      .nullable()
      .describe(
        'above: past the forecast’s p99; below: under its p1 (the run is flagged); null within, and always null when banded is false.',
      ),
    culprits: z
      .array(
        z.strictObject({
          target: z.string(),
          node: z.string(),
          seconds: Seconds.describe('Its measured build record.'),
          bandSeconds: BandSecondsSchema.describe('Its forecast duration band.'),
          onCriticalPath: z.boolean(),
        }),
      )
      .describe(
        'Targets whose measured time fell outside their own band, on the side the run did; worst first.',
      ),
    targets: z
      .array(z.strictObject({ target: z.string(), finish: BandSecondsSchema }))
      .describe('Per target, its forecast finish band (seconds from the start).'),
  })
  .refine((forecast) => forecast.banded || (forecast.outside === null && forecast.culprits.length === 0), {
    message:
      'an unbanded forecast (banded: false) has no band to be outside of: outside must be null, culprits empty',
    path: ['outside'],
  })
  .nullable()
  .default(null)
  .describe('The plan’s makespan forecast against the run (docs/forecast.md); null when plan.json has none.');
export type ForecastSummary = z.infer<typeof ForecastSummarySchema>;

const SummarySchema = z.strictObject({
  harness: HarnessLabelSchema,
  namespace: z.string().nullable(),
  makespanSeconds: Seconds.nullable().describe('First target start to last target end (measured).'),
  plannedMakespanSeconds: Seconds.nullable(),
  lowerBoundSeconds: Seconds.nullable(),
  planNotes: z
    .array(z.string())
    .describe(
      'What a reader of the planned figures must know: the plan of a warm run made without warm build figures, a measured makespan under the lower bound and why.',
    ),
  partial: Partial.describe(
    'Trace files whose damage or absence leaves the makespan and the critical path partial.',
  ),
  bootstrap: z
    .strictObject({
      seconds: Seconds.describe('First bootstrap build start to last bootstrap build end.'),
      targets: z.array(z.strictObject({ target: z.string(), node: z.string(), seconds: Seconds })),
    })
    .nullable()
    .default(null)
    .describe(
      'Images built before the measured run (warm, pushed, not sampled): outside the makespan. Null when none, or not recorded.',
    ),
  targets: z.array(TargetSummarySchema),
  nodes: z.array(NodeSummarySchema),
  why: RunWhySchema.nullable()
    .default(null)
    .describe(
      'What the per-target `why` compares against, and the evidence builders lacked; null when not explained.',
    ),
  advice: z
    .array(AdviceSchema)
    .nullable()
    .default(null)
    .describe('The advisor’s ranked actions (`rocm-perf advise`); null when not computed.'),
  sccache: z.strictObject({
    prefix: z.string().nullable().describe('The run’s key prefix; null when unknown (all records counted).'),
    total: SccacheCountsSchema,
    perNode: z.record(z.string(), SccacheCountsSchema),
    outsidePrefix: SccacheCountsSchema.describe(
      'Traffic under other prefixes (e.g. the live cache) in the window.',
    ),
    partial: Partial,
  }),
  registry: z.strictObject({
    cache: RegistryCountsSchema,
    image: RegistryCountsSchema,
    writesWithoutSize: Count.describe('Writes whose size the log did not say (not counted in bytesWritten).'),
    partial: Partial,
  }),
  criticalPath: z.strictObject({
    measured: z.array(z.string()).describe('Last-finishing target back through what it waited for.'),
    measuredSeconds: Seconds.nullable(),
    planned: z.array(z.string()),
  }),
  forecast: ForecastSummarySchema,
  streams: z.record(z.string(), StreamSummarySchema),
  warnings: z.array(WarningSchema),
});
export type Summary = z.infer<typeof SummarySchema>;

const BandSchema = z.strictObject({
  target: z.string(),
  node: z.string(),
  phase: PhaseSchema,
  startMs: Ms,
  endMs: Ms,
  commands: z
    .array(z.string())
    .describe('steps: the instructions the band covers; upload: one line per request.'),
  bytes: Count.nullable(),
});
export type Band = z.infer<typeof BandSchema>;

const TimelineSchema = z.strictObject({
  originMs: Ms.describe('Measured start; planned times are relative to it.'),
  endMs: Ms,
  lanes: z.array(z.strictObject({ node: z.string(), builder: z.string() })),
  bands: z.array(BandSchema),
  planned: z.array(z.strictObject({ target: z.string(), node: z.string(), startMs: Ms, endMs: Ms })),
});
export type Timeline = z.infer<typeof TimelineSchema>;

/** [epoch ms, percent]; a null percent marks a gap. */
export type SeriesPoint = [number, number | null];

/**
 * The first thing wrong with a list of points, as `[index]: …`; undefined when every entry is a pair of finite
 * numbers (the second may be null). One loop: the page checks tens of thousands of points before its first chart,
 * and a zod tuple per point cost it a fifth of its startup.
 */
function findBadPoint(value: unknown): string | undefined {
  if (!Array.isArray(value))
    return `expected an array of [epoch ms, percent | null] points, got ${typeof value}`;
  for (let index = 0; index < value.length; index++) {
    const point: unknown = value[index];
    if (
      !Array.isArray(point) ||
      point.length !== 2 ||
      !Number.isFinite(point[0]) ||
      (point[1] !== null && !Number.isFinite(point[1]))
    )
      return `[${index}]: expected [epoch ms, percent | null], got ${String(JSON.stringify(point)).slice(0, 80)}`;
  }
  return undefined;
}

const SeriesSchema = z.strictObject({
  node: z.string(),
  builder: z.string(),
  metric: z.enum(['cpu', 'mem']),
  points: z
    .custom<SeriesPoint[]>((value) => findBadPoint(value) === undefined, {
      error: (issue) => findBadPoint(issue.input),
    })
    .meta({
      description: '[epoch ms, percent]; null marks a gap.',
      // A hand-written check has no shape to build an example from: the schema round-trip test uses this one.
      examples: [
        [
          [1773477600000, 12.5],
          [1773477601000, null],
        ],
      ],
    }),
});
export type Series = z.infer<typeof SeriesSchema>;

export const DataFileSchema = z.strictObject({
  version: z.literal(DATA_VERSION),
  generatedAtMs: Ms,
  run: RunInfoSchema,
  summary: SummarySchema,
  timeline: TimelineSchema,
  series: z.array(SeriesSchema),
});
export type DataFile = z.infer<typeof DataFileSchema>;
