// A module of its own, without zod, so the CLI's flag table (and `--help`) can name the default without loading the
// samples.jsonl schema.

/** One sample per node this often unless `--sample-interval-ms` says otherwise: the only place it is written. */
export const DEFAULT_SAMPLE_INTERVAL_MS = 2_000;
