import {
  buildAddressToNode,
  readArtifacts,
  readLane,
  readReportPlan,
  openRunDir,
  type RunDir,
  readTraceFile,
  absentStream,
  probeStream,
  unreadableStream,
  readRunFile,
  type RunInputs,
  type StreamInput,
} from '../run-dir/index.js';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import {
  addToRegistrySummary,
  addToSccacheSummary,
  createLogTail,
  createRegistryLineParser,
  createRegistrySummary,
  createSccacheParser,
  createSamplesTail,
  createSccacheSummary,
  type LogTail,
  type RegistryRecord,
  type RegistrySummary,
  type SccacheRecord,
  type SamplesTail,
  type SccacheSummary,
  type TargetTrace,
} from '../collect/index.js';
import {
  createSampleTable,
  type RunFile,
  type StreamStats,
  RUN_DIR_FILES,
  TRACE_FILE,
} from '../artifacts/index.js';

// A run dir read incrementally for `serve`: the cache logs through the slicers' cursors (createLogTail) and
// samples.jsonl by byte offset, so each refresh parses only what was appended; traces are parsed once per
// (mtime, size). `changed` says whether anything new arrived, so an unchanged run is not rebuilt.

type Inputs = Omit<RunInputs, 'generatedAtMs'>;

interface Tailed<R, A> {
  tail: LogTail<R, A>;
  summary: A | undefined;
  stats: StreamStats;
}

export interface InFlightRunReader {
  read(): Promise<{ inputs: Inputs; changed: boolean }>;
}

/** A file's identity and size, without following a link (the read itself is confined: openRunFile). */
async function signature(file: string): Promise<string> {
  const info = await lstat(file).catch(() => undefined);
  return info ? `${info.ino}:${info.size}:${info.mtimeMs}` : 'absent';
}

async function readTailed<R, A>(tailed: Tailed<R, A>): Promise<boolean> {
  const read = await tailed.tail.read();
  const changed = read.reset || read.stats.lines !== tailed.stats.lines;
  tailed.summary = read.aggregate;
  tailed.stats = read.stats;
  return changed;
}

/** The logs are only summarised, as the report reads them: no record is held. */
const keepNone = () => false;

export function createInFlightRunReader(dir: string): InFlightRunReader {
  const file = (name: string): string => path.join(dir, name);
  let samples: SamplesTail | undefined;
  let sccache: Tailed<SccacheRecord, SccacheSummary> | undefined;
  let registry: Tailed<RegistryRecord, RegistrySummary> | undefined;
  const traces = new Map<string, { sig: string; trace: TargetTrace | undefined; stream: StreamInput }>();
  let lastSignature = '';
  let tailsFor = '';

  /** The tails, made again from the start when run.json changes what they depend on (it may appear after serve). */
  function createTails(run: RunFile | undefined): void {
    const addressToNode = buildAddressToNode(run);
    const summarize = { livePrefix: run?.liveSccachePrefix ?? '', runPrefix: run?.sccachePrefix };
    const format = run?.registryLogFormat ?? 'zot';
    const cachePatterns = run?.registryCachePatterns ?? ['*/cache:*'];
    const key = JSON.stringify([addressToNode, summarize, format, cachePatterns]);
    if (key === tailsFor) return;
    tailsFor = key;
    sccache = {
      tail: createLogTail({
        path: file(RUN_DIR_FILES.sccache),
        ...createSccacheParser({ addressToNode }),
        aggregate: {
          create: () => createSccacheSummary(summarize),
          add: (summary: SccacheSummary, record: SccacheRecord) =>
            addToSccacheSummary(summary, record, summarize),
        },
        keep: keepNone,
      }),
      summary: undefined,
      stats: absentStream(RUN_DIR_FILES.sccache).stats,
    };
    registry = {
      tail: createLogTail({
        path: file(RUN_DIR_FILES.registry),
        ...createRegistryLineParser({ format, cachePatterns, addressToNode }),
        aggregate: { create: createRegistrySummary, add: addToRegistrySummary },
        keep: keepNone,
      }),
      summary: undefined,
      stats: absentStream(RUN_DIR_FILES.registry).stats,
    };
  }

  /** Each trace once it changes, held to the run as `report` holds it (a trace is written after its target ends). */
  async function readTraces(runDir: RunDir, run: RunFile | undefined): Promise<boolean> {
    let changed = false;
    const names = (await runDir.listNames()).filter((name) => TRACE_FILE.test(name));
    for (const name of names) {
      const sig = await signature(file(name));
      if (traces.get(name)?.sig === sig) continue;
      traces.set(name, { sig, ...(await readTraceFile(runDir, name, { run, nowMs: Date.now() })) });
      changed = true;
    }
    return changed;
  }

  return {
    async read() {
      // A fresh handle per read: the run's files grow between reads.
      const runDir = openRunDir(dir);
      const run = await readRunFile(runDir);
      const plan = await readReportPlan(runDir);
      createTails(run);
      samples ??= createSamplesTail(file(RUN_DIR_FILES.samples));
      // A link or special file is there but refused (openRunFile): a warning naming it, never read.
      const probes = {
        samples: await probeStream(file(RUN_DIR_FILES.samples)),
        sccache: await probeStream(file(RUN_DIR_FILES.sccache)),
        registry: await probeStream(file(RUN_DIR_FILES.registry)),
      };
      const isReadable = (probe: { present: boolean; unreadable?: string }) =>
        probe.present && probe.unreadable === undefined;
      const present = {
        samples: isReadable(probes.samples),
        sccache: isReadable(probes.sccache),
        registry: isReadable(probes.registry),
      };
      const samplesRead = present.samples ? await samples.read() : undefined;
      let changed = samplesRead?.changed ?? false;
      if (present.sccache && (await readTailed(sccache!))) changed = true;
      if (present.registry && (await readTailed(registry!))) changed = true;
      if (await readTraces(runDir, run)) changed = true;
      const artifacts = await readArtifacts(runDir);
      const sig = [
        await signature(file('run.json')),
        await signature(file('plan.json')),
        artifacts.stream.stats.bytes,
      ].join('|');
      if (sig !== lastSignature) changed = true;
      lastSignature = sig;
      const stream = (name: keyof typeof probes, stats: StreamStats | undefined): StreamInput => {
        const at = RUN_DIR_FILES[name];
        const why = probes[name].unreadable;
        if (why !== undefined) return unreadableStream(at, why);
        return present[name] && stats
          ? { name: at, present: true, stats: { ...stats, source: at } }
          : absentStream(at);
      };
      return {
        changed,
        inputs: {
          stamp: path.basename(dir),
          lane: await readLane(runDir),
          run,
          plan,
          samples: samplesRead?.table ?? createSampleTable(),
          traces: [...traces.values()].flatMap((t) => (t.trace ? [t.trace] : [])),
          sccache: present.sccache ? sccache?.summary : undefined,
          registry: present.registry ? registry?.summary : undefined,
          artifacts: artifacts.lines,
          streams: [
            stream('samples', samplesRead?.stats),
            stream('sccache', sccache?.stats),
            stream('registry', registry?.stats),
            artifacts.stream,
            ...[...traces.values()].map((t) => t.stream),
          ],
        },
      };
    },
  };
}
