// The files of a run dir the report reads, by role. Pure constants, so the model builders can name them.

export const RUN_FILES = {
  samples: 'samples.jsonl',
  sccache: 'sccache.log',
  registry: 'zot.jsonl',
  artifacts: 'artifacts.txt',
} as const;
export const TRACE_FILE = /^trace-(.+)\.json$/;
