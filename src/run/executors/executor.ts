// What the node queues run for each target (run/harness/queues/): the contract between the queues and an executor.
// The real one is the buildx executor (buildx-executor.ts); tests hand the queues a simulated one.

/** A target on a node, as the queues hand it out. */
export interface QueueJob {
  target: string;
  node: string;
}

/** What one executor call reports. Expected failures are values, never throws. */
export type ExecResult =
  | { ok: true; buildRef?: string | undefined }
  | { ok: false; exitCode: number | null; error: string; buildRef?: string | undefined };

export interface Executor {
  run(job: QueueJob, options: { signal: AbortSignal }): Promise<ExecResult>;
}
