import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InternalError } from '../../../shared/errors.js';
import { RUN_DIR_FILES, RUN_VERSION, type RunFile, RunFileSchema } from '../../../artifacts/index.js';
import { type RunContext, toUploadRefs } from '../context/index.js';
import { formatZodIssues } from '../../../shared/format-zod-issues.js';
import { digestBakeGraph } from '../../../graph/index.js';

// run.json is rewritten as the run goes (serve shows a run in flight), atomically and in order,
// and validated through the same schema its readers use before every write.

export interface RunFileWriter {
  get(): RunFile;
  update(change: (run: RunFile) => void): Promise<void>;
  /** False while the last write failed on a disk error (run.json on disk is older than get()). */
  isWritten(): boolean;
}

export interface RunFileWriterOptions {
  /** Told of a failed write; returning true (a disk failure the run handles) keeps update() from rejecting. */
  onWriteError?: (file: string, error: unknown) => boolean;
}

export function createRunFileWriter(
  runDir: string,
  initial: RunFile,
  options: RunFileWriterOptions = {},
): RunFileWriter {
  const file = path.join(runDir, RUN_DIR_FILES.run);
  let current = structuredClone(initial);
  let written = false;
  let chain: Promise<void> = Promise.resolve();
  const write = async (snapshot: RunFile) => {
    const parsed = RunFileSchema.safeParse(snapshot);
    if (!parsed.success)
      throw new InternalError(
        `run.json would not validate: ${formatZodIssues(parsed.error.issues, { limit: Infinity, root: '' })}`,
      );
    try {
      await writeFile(`${file}.tmp`, `${JSON.stringify(parsed.data, null, 2)}\n`);
      await rename(`${file}.tmp`, file);
      written = true;
    } catch (error) {
      written = false;
      if (options.onWriteError?.(file, error) !== true) throw error;
    }
  };
  return {
    get: () => current,
    isWritten: () => written,
    update(change) {
      const next = structuredClone(current);
      change(next);
      current = next;
      const snapshot = structuredClone(next);
      chain = chain.catch(() => undefined).then(() => write(snapshot));
      return chain;
    },
  };
}

export interface CreateInitialRunOptions {
  context: RunContext;
  startedAtMs: number;
  sampleIntervalMs: number;
}

/** run.json's first document: every target pending on its planned node, nothing measured yet. */
export function createInitialRun({
  context,
  startedAtMs,
  sampleIntervalMs,
}: CreateInitialRunOptions): RunFile {
  const { config, settings, plan } = context;
  const prometheusUrl = config.samples?.prometheusUrl;
  return {
    samples:
      prometheusUrl === undefined
        ? { source: 'node_exporter', intervalMs: sampleIntervalMs }
        : { source: 'prometheus', intervalMs: sampleIntervalMs, prometheusUrl },
    version: RUN_VERSION,
    stamp: context.stamp,
    harness: context.harness,
    mode: settings.mode,
    namespace: settings.namespace,
    arch: config.arch,
    sccachePrefix: settings.sccachePrefix,
    liveSccachePrefix: settings.liveSccachePrefix,
    fleetPath: context.fleetPath,
    strategy: plan.strategy,
    dispatch: context.dispatch,
    status: 'running',
    startedAtMs,
    measuredStartedAtMs: null,
    finishedAtMs: null,
    exitCode: null,
    nodes: config.nodes.map((node) => ({
      name: node.name,
      builder: node.builder,
      ...(node.address ? { address: node.address } : {}),
      linkMbps: node.linkMbps,
      speed: node.speed,
      ...(node.memoryBytes === undefined ? {} : { memoryBytes: node.memoryBytes }),
    })),
    targets: Object.fromEntries(
      Object.entries(plan.targets).map(([target, entry]) => [
        target,
        { status: 'pending' as const, node: entry.node },
      ]),
    ),
    deps: Object.fromEntries(
      Object.entries(plan.targets).map(([target, entry]) => [target, [...entry.deps]]),
    ),
    bootstrapped: [],
    registryCachePatterns: config.registry.cachePatterns,
    registryLogFormat: config.registry.logFormat,
    warnings: [...context.warnings],
    uploadRefs: toUploadRefs({
      print: context.print,
      targets: Object.keys(plan.targets),
      liveNamespace: settings.liveNamespace,
      namespace: settings.namespace,
      clearCacheTo: settings.clearCacheTo,
    }),
    bake: digestBakeGraph(context.print, Object.keys(plan.targets)),
  };
}
