import type { Plan, PlanForecast } from '../artifacts/index.js';
import type {
  RegistrySummary,
  SccacheSummary,
  TargetTrace,
  ProvenanceUsage,
  StatusVertex,
} from '../collect/index.js';
import type { RunFile, SampleTable, StreamStats } from '../artifacts/index.js';
import type { ReportWarning, StepUsagePoll } from '../artifacts/index.js';

// What the model builder needs from a run dir, already parsed. read-run-dir.ts fills it; tests build it by hand.

/** The part of plan.json the report uses (mapped from PlanFileSchema in read-run-dir.ts). */
export interface ReportPlan {
  strategy: string;
  makespanSeconds: number;
  lowerBoundSeconds: number;
  targets: Readonly<
    Record<
      string,
      {
        node: string;
        startSeconds: number;
        finishSeconds: number;
        deps: readonly string[];
        /** The plan's build term on its node (plan.json); absent in hand-made plans. */
        buildSeconds?: number;
        /** The bytes the plan charged its export with: exportSeconds × the node's link_mbps × 10^6. */
        plannedBytes?: number;
      }
    >
  >;
  criticalPath: readonly string[];
  /** Which build figures the plan used (plan.json `costs`): a warm plan names the targets it had no warm figure for. */
  costs: { mode: 'cold' | 'warm'; coldBuildFor: readonly string[]; fullExportFor: readonly string[] };
  /** plan.json's forecast with what a live forecast re-simulates (queues, waits, nodes); absent in older plans. */
  forecast?: PlanForecastInput | undefined;
}

export interface PlanForecastInput {
  forecast: PlanForecast;
  dispatchPlan: Pick<Plan, 'queues' | 'targets' | 'nodes'>;
}

export interface StreamInput {
  /** Stable key in data.json `streams`, e.g. `zot.jsonl` or `trace-pytorch.json`. */
  name: string;
  present: boolean;
  stats: StreamStats;
  /** The parser's own warnings beyond StreamStats (e.g. a trace with spans but no steps); shown loud. */
  extraWarnings?: readonly string[];
  /** A well-formed file that lists nothing (artifacts.txt before anything was published): no records is its answer. */
  listsNothing?: boolean;
  /** Why the file is there but could not be read (e.g. `EACCES`, `a directory, not a file`); its figures are missing. */
  unreadable?: string;
  /**
   * Loud findings of the run's trust checks (a digest that differs from run.json's, a trace that is not this run's),
   * each naming the file at fault; the figures drawn from this file are marked partial.
   */
  damage?: readonly string[];
  /** Skip reasons this file's format never produces (a zot log is JSON only: `not JSON` is garbage, not noise). */
  unexpectedSkips?: readonly string[];
}

export interface RunInputs {
  stamp: string;
  /** Where the run was recorded (lane.txt, else `fleet`). */
  lane: string;
  run: RunFile | undefined;
  plan: ReportPlan | undefined;
  /** samples.jsonl as columns per node (artifacts/sample-table.ts); createSampleTable([...]) builds one by hand. */
  samples: SampleTable;
  traces: readonly TargetTrace[];
  /**
   * sccache.log and zot.jsonl summarised as they were read (the run's key prefix as `runPrefix`); undefined when the
   * file is absent. No record is held, so a 300 MB log costs the report no memory beyond its chunk.
   */
  sccache: SccacheSummary | undefined;
  registry: RegistrySummary | undefined;
  artifacts: readonly string[];
  streams: readonly StreamInput[];
  /**
   * What the trust checks found outside the streams: plan.json not the plan this run used (loud; its planned figures
   * are left out), a recorded file absent or changed that no figure reads (loud), and notes (a run that recorded no
   * digests). Absent when nothing was checked (inputs built by hand).
   */
  checks?: RunChecks;
  generatedAtMs: number;
  /** What each RUN step used (read-usage-inputs.ts); absent in inputs built by hand. */
  usage?: UsageRead;
  /** LTTB budget per series (default: an equal share of 24,000 points, 250–1,000; see buildPointsPerSeries). */
  seriesPoints?: number;
}

export interface RunChecks {
  loud: readonly { file: string; message: string }[];
  notes: readonly { file: string; message: string }[];
}

/** What the step-usage join (report/build-usage.ts) reads from a run dir. */
export interface UsageInputs {
  /** step-usage.jsonl's successful polls, in file order. */
  polls: readonly StepUsagePoll[];
  /** Each target's status-stream vertices. */
  vertices: ReadonlyMap<string, readonly StatusVertex[]>;
  /** Each target's provenance usage (metadata file), where BuildKit sampled. */
  provenance: ReadonlyMap<string, ProvenanceUsage>;
  /** fleet.yaml memory_gb as run.json recorded it, per node. */
  configuredMemoryBytes: ReadonlyMap<string, number>;
  /** Each node's MemTotal from samples.jsonl. */
  sampledMemoryBytes: ReadonlyMap<string, number>;
}

/** The usage inputs with what reading them found wrong. */
export interface UsageRead {
  usage: UsageInputs;
  warnings: ReportWarning[];
}
