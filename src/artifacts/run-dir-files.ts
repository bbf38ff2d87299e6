// The one table of a run dir's file names (docs/run-dir.md): what the harness, `import` and `report` write, and
// what every reader (src/run-dir/) reads. Pure constants, so the page bundle and the writers share them.

export const RUN_DIR_FILES = {
  /** The run as the harness keeps it (run-file.ts). */
  run: 'run.json',
  /** The plan the run used (plan-file.ts). */
  plan: 'plan.json',
  /** The lane of a run brought in by `rocm-perf import` (lane.ts). */
  lane: 'lane.txt',
  /** node_exporter or Prometheus samples (samples.ts). */
  samples: 'samples.jsonl',
  /** Each RUN step's cgroup, polled (step-usage-file.ts). */
  stepUsage: 'step-usage.jsonl',
  /** The run's slice of the sccache host's nginx log. */
  sccache: 'sccache.log',
  /** The run's slice of the registry's log (Zot's JSON, or Distribution's). */
  registry: 'zot.jsonl',
  /** Blob sizes a Distribution log lacks (registry-sizes-file.ts). */
  registrySizes: 'registry-sizes.json',
  /** The wheels and images the run made (artifacts-file.ts). */
  artifacts: 'artifacts.txt',
  /** The report's model (data-file.ts); report.md, its SVGs and the page beside it. */
  data: 'data.json',
  reportMarkdown: 'report.md',
  timelineSvg: 'timeline.svg',
  targetsSvg: 'targets.svg',
  page: 'index.html',
  pageScript: 'report-page.js',
} as const;

/** The files a run writes per target (and per node, for the builder's cache). */
export const TARGET_FILES = {
  /** BuildKit's trace of the target's build (`buildx history trace`). */
  trace: (target: string) => `trace-${target}.json`,
  /** The build's rawjson status stream (`--progress rawjson`). */
  status: (target: string) => `status-${target}.jsonl`,
  /** bake's metadata file (`--metadata-file`). */
  meta: (target: string) => `meta-${target}.json`,
  /** The build record's SLSA provenance attachment. */
  provenance: (target: string) => `provenance-${target}.json`,
  /** A node's builder cache, as `buildx du --verbose` and the cache debug database saw it. */
  cacheDebug: (node: string) => `cache-debug-${node}.json`,
} as const;

/** trace-<target>.json → the target. */
export const TRACE_FILE = /^trace-(.+)\.json$/;
/** status-<target>.jsonl → the target. */
export const STATUS_FILE = /^status-(.+)\.jsonl$/;

/** The run's input streams the report counts as streams (data.json records each one's size), traces aside. */
export const STREAM_FILES = [
  RUN_DIR_FILES.samples,
  RUN_DIR_FILES.stepUsage,
  RUN_DIR_FILES.sccache,
  RUN_DIR_FILES.registry,
  RUN_DIR_FILES.artifacts,
] as const;
