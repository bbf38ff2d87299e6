// Runs inside the builder's network namespace: builds the job's targets (linked ones first, the rest in
// parallel), records history and traces, writes the metadata file when everything succeeded.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { readFleetState } from '../fleet-state.js';
import { BakeJobSchema, type BakeJob } from './bake-job.js';
import { buildTarget, toCanceledRecord, type TargetOutcome } from './build-target.js';
import { toLinkedTargets } from './build-steps.js';
import { createCpuBurner } from './cpu-burner.js';
import { writeHistoryRecord } from './history-store.js';
import { workTaskFds } from './bake-command.js';
import { createProgressWriter } from './progress.js';
import { createPushLimiter } from './push-limiter.js';
import { createTraceRecorder, renderSpanStream } from './spans.js';
import type { BuildEnv } from './build-context.js';

function readJob(jobPath: string): BakeJob {
  const parsed = BakeJobSchema.parse(JSON.parse(readFileSync(jobPath, 'utf8')));
  return { ...parsed, targets: parsed.targets };
}

function scheduleTargets(
  job: BakeJob,
  build: (name: string) => Promise<TargetOutcome>,
): Promise<TargetOutcome[]> {
  const started = new Map<string, Promise<TargetOutcome>>();
  const start = (name: string): Promise<TargetOutcome> => {
    const existing = started.get(name);
    if (existing) return existing;
    const target = job.targets[name]!;
    const deps = toLinkedTargets({ target } as Parameters<typeof toLinkedTargets>[0]).filter(
      (dep) => dep in job.targets,
    );
    const promise = Promise.all(deps.map(start)).then((outcomes) => {
      const failed = outcomes.find((o) => o.error !== undefined);
      if (failed)
        return {
          name,
          record: failed.record,
          metadata: {},
          error: `canceled: dependency ${failed.name} failed`,
        };
      return build(name);
    });
    started.set(name, promise);
    return promise;
  };
  return Promise.all(Object.keys(job.targets).map(start));
}

export async function runBakeWorker(jobPath: string): Promise<number> {
  // The node's BuildKit stamps its spans promptly although every node shares this host's cores (its compile work
  // stays held to the node's quota); threads started from here on inherit it.
  setPriority(-10);
  const job = readJob(jobPath);
  const state = readFleetState(job.statePath);
  const builderState = state.builders[job.builder]!;
  const recorder = createTraceRecorder();
  const names = Object.keys(job.targets);
  const bakeSpan = recorder.startSpan({
    name: `bake ${job.requested.join(' ')}`,
    service: 'buildx',
    attrs: { command: job.command },
  });
  recorder.startSpan({ name: 'load buildkit capabilities', parent: bakeSpan, service: 'buildx' }).end();
  const burner = createCpuBurner(builderState.cgroup ? workTaskFds : undefined);
  const numbers = new Map<string, number>();
  const write = (line: string) => process.stderr.write(`${line}\n`);
  const env: BuildEnv = {
    state,
    builder: job.builder,
    node: builderState.node,
    recorder,
    bakeSpan,
    progress: createProgressWriter({ mode: job.progress, write, numbers }),
    burner,
    sccacheEndpoint: state.sccacheUrl,
    userAgent: `buildkit/${builderState.buildkitVersion.split('.').slice(0, 2).join('.')}`,
    buildkitVersion: builderState.buildkitVersion,
    pushLimiter: createPushLimiter(),
    running: new Map(),
  };
  // The client went away (the harness cancelled the bake): like buildkitd, keep a record of each build that was
  // running, status canceled, with the trace up to now; then stop.
  const cancel = () => {
    const traceBlob = () => renderSpanStream(recorder.toStubs());
    const records = [...env.running.values()].map((run) => toCanceledRecord(env, run));
    bakeSpan.end({ error: 'context canceled' });
    for (const record of records) writeHistoryRecord(state.stateDir, record, traceBlob());
    process.exit(130);
  };
  process.once('SIGTERM', cancel);
  process.once('SIGINT', cancel);
  const outcomes = await scheduleTargets(job, (name) => {
    const endpoint = job.targets[name]!.args?.SCCACHE_WEBDAV_ENDPOINT;
    const prefixed =
      names.length > 1
        ? createProgressWriter({ mode: job.progress, write, prefix: name, numbers })
        : env.progress;
    return buildTarget(
      { ...env, progress: prefixed, sccacheEndpoint: endpoint ?? env.sccacheEndpoint },
      name,
      job.targets[name]!,
    );
  });
  await burner.close();
  bakeSpan.end();
  const traceBlob = renderSpanStream(recorder.toStubs());
  for (const outcome of outcomes)
    if (!outcome.error?.startsWith('canceled')) writeHistoryRecord(state.stateDir, outcome.record, traceBlob);
  const failures = outcomes.filter((o) => o.error !== undefined);
  for (const failure of failures) process.stderr.write(`ERROR: target ${failure.name}: ${failure.error}\n`);
  if (failures.length > 0) return 1;
  if (job.metadataFile) writeMetadataFile(job.metadataFile, outcomes);
  return 0;
}

function writeMetadataFile(filePath: string, outcomes: readonly TargetOutcome[]): void {
  const body = Object.fromEntries(
    [...outcomes].sort((a, b) => a.name.localeCompare(b.name)).map((o) => [o.name, o.metadata]),
  );
  const temp = `${filePath}.tmp-${process.pid}`;
  writeFileSync(temp, `${JSON.stringify(body, null, 2)}\n`);
  renameSync(temp, filePath);
}
