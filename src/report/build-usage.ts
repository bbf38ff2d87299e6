import { type UsageInputs } from '../run-dir/index.js';
import type {
  NodeSummary,
  NodeUsage,
  ReportWarning,
  StepUsage,
  StepUsagePoll,
  TargetSummary,
  TargetUsage,
  UsageFlag,
} from '../artifacts/index.js';
import {
  matchesStepCommand,
  parseCgroupCounters,
  type CgroupFigures,
  toRunCommand,
  type StatusVertex,
} from '../collect/index.js';

import { RUN_DIR_FILES } from '../artifacts/index.js';

// What each RUN step used (docs/step-usage.md): BuildKit's own provenance samples first, else the step container's
// cgroup as the step-usage sampler read it, joined to the step by its command line and its time. Pure.

/** A step's peak within this share of its node's memory is flagged `memory-near-limit`. */
const NEAR_LIMIT_SHARE = 0.1;

type Figures = Omit<CgroupFigures, 'memoryCurrentBytes'>;
const FIGURE_KEYS = [
  'cpuSeconds',
  'memoryPeakBytes',
  'ioReadBytes',
  'ioWriteBytes',
  'pidsPeak',
  'oomEvents',
] as const;

/** One container cgroup over the polls that saw it. */
interface SeenGroup {
  node: string;
  id: string;
  firstMs: number;
  lastMs: number;
  cmdlines: Set<string>;
  figures: Figures;
}

const maxOrNull = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/** CPU and IO are cumulative, peaks are maxima: the largest reading of each over the polls is the closest. */
function foldPolls(polls: readonly StepUsagePoll[]): SeenGroup[] {
  const groups = new Map<string, SeenGroup>();
  for (const poll of polls)
    for (const read of poll.groups) {
      const key = `${poll.node}\u0000${read.id}`;
      const parsed = parseCgroupCounters(poll.cgroup, read.files);
      const figures: Figures = {
        ...parsed,
        memoryPeakBytes: parsed.memoryPeakBytes ?? parsed.memoryCurrentBytes,
      };
      const known = groups.get(key);
      if (!known) {
        groups.set(key, {
          node: poll.node,
          id: read.id,
          firstMs: poll.tsMs,
          lastMs: poll.tsMs,
          cmdlines: new Set(read.cmdlines),
          figures,
        });
        continue;
      }
      known.firstMs = Math.min(known.firstMs, poll.tsMs);
      known.lastMs = Math.max(known.lastMs, poll.tsMs);
      for (const cmdline of read.cmdlines) known.cmdlines.add(cmdline);
      for (const name of FIGURE_KEYS) known.figures[name] = maxOrNull(known.figures[name], figures[name]);
    }
  return [...groups.values()];
}

/** How far a cgroup's polls may sit outside its step's times: two poll gaps and 2 s of clock difference. */
function toleranceMs(polls: readonly StepUsagePoll[]): number {
  const gaps: number[] = [];
  for (let i = 1; i < polls.length; i++) {
    const gap = (polls[i]?.tsMs ?? 0) - (polls[i - 1]?.tsMs ?? 0);
    if (gap > 0 && polls[i]?.node === polls[i - 1]?.node) gaps.push(gap);
  }
  gaps.sort((a, b) => a - b);
  return 2 * (gaps[Math.floor(gaps.length / 2)] ?? 1000) + 2000;
}

/** The vertex's times on the workstation's clock (BuildKit stamps them with the builder's). */
const shiftVertex = (vertex: StatusVertex, offsetMs: number): StatusVertex =>
  offsetMs === 0
    ? vertex
    : {
        ...vertex,
        startedMs: vertex.startedMs === null ? null : vertex.startedMs - offsetMs,
        completedMs: vertex.completedMs === null ? null : vertex.completedMs - offsetMs,
      };

interface RunStep {
  target: string;
  vertex: StatusVertex;
  command: string;
}

function overlaps(group: SeenGroup, vertex: StatusVertex, slackMs: number): boolean {
  const start = vertex.startedMs ?? Number.NEGATIVE_INFINITY;
  const end = vertex.completedMs ?? Number.POSITIVE_INFINITY;
  return group.firstMs <= end + slackMs && group.lastMs >= start - slackMs;
}

/** runc's own process while it sets a container up (`runc init`), before the step's command replaces it. */
const isRuntimeProcess = (cmdline: string) => /^(?:\S*\/)?runc init$/.test(cmdline);

/** Each cgroup to the one step it ran, or a note saying why it was not attributed. Never a guess. */
function joinGroups(options: {
  groups: readonly SeenGroup[];
  stepsOn: (node: string) => readonly RunStep[];
  slackMs: number;
}): { byVertex: Map<string, SeenGroup[]>; notes: string[] } {
  const byVertex = new Map<string, SeenGroup[]>();
  const notes: string[] = [];
  for (const group of options.groups) {
    const steps = options.stepsOn(group.node);
    const byCommand = steps.filter((step) =>
      [...group.cmdlines].some((cmdline) => matchesStepCommand(cmdline, step.command)),
    );
    const matched = byCommand.filter((step) => overlaps(group, step.vertex, options.slackMs));
    const where = `cgroup ${group.id.slice(0, 12)} on ${group.node}`;
    if (matched.length === 1) {
      const key = `${matched[0]!.target}\u0000${matched[0]!.vertex.digest}`;
      byVertex.set(key, [...(byVertex.get(key) ?? []), group]);
    } else if (matched.length > 1)
      notes.push(
        `${where} matches ${matched.length} RUN steps by command and time (${matched.map((s) => `${s.target}: ${s.vertex.name}`).join('; ')}); its usage is not attributed`,
      );
    else if ([...group.cmdlines].every(isRuntimeProcess))
      notes.push(
        `${where}: no process of a step was seen in it (${group.cmdlines.size === 0 ? 'empty' : 'only runc starting it'}: the step ran between two polls, shorter than the poll interval); its usage is not attributed`,
      );
    else
      notes.push(
        `${where} (${[...group.cmdlines][0]}) matches no RUN step of a target built on ${group.node}${byCommand.length > 0 ? ' at its time' : ''}; its usage is not attributed`,
      );
  }
  return { byVertex, notes };
}

const sumOrNull = (values: readonly (number | null)[]): number | null =>
  values.length === 0 || values.some((value) => value === null)
    ? null
    : values.reduce<number>((sum, value) => sum + (value ?? 0), 0);

function sumFigures(items: readonly Figures[], peak: 'sum' | 'max'): Figures {
  const pick = (name: (typeof FIGURE_KEYS)[number]) => items.map((item) => item[name]);
  const peakOf = (values: (number | null)[]) =>
    peak === 'sum' ? sumOrNull(values) : values.reduce<number | null>((a, b) => maxOrNull(a, b), null);
  return {
    cpuSeconds: sumOrNull(pick('cpuSeconds')),
    memoryPeakBytes: peakOf(pick('memoryPeakBytes')),
    ioReadBytes: sumOrNull(pick('ioReadBytes')),
    ioWriteBytes: sumOrNull(pick('ioWriteBytes')),
    pidsPeak: peakOf(pick('pidsPeak')),
    oomEvents: sumOrNull(pick('oomEvents')),
  };
}

function roundFigures(figures: Figures): Figures {
  return {
    ...figures,
    cpuSeconds: figures.cpuSeconds === null ? null : Math.round(figures.cpuSeconds * 1000) / 1000,
  };
}

function toFlags(figures: Figures, memoryBytes: number | null): UsageFlag[] {
  const flags: UsageFlag[] = [];
  if (
    memoryBytes !== null &&
    figures.memoryPeakBytes !== null &&
    figures.memoryPeakBytes >= memoryBytes * (1 - NEAR_LIMIT_SHARE)
  )
    flags.push('memory-near-limit');
  if (figures.oomEvents !== null && figures.oomEvents > 0) flags.push('oom');
  return flags;
}

export interface UsageResult {
  targets: TargetSummary[];
  nodes: NodeSummary[];
  warnings: ReportWarning[];
}

/** A node's memory: fleet.yaml memory_gb (run.json), else MemTotal from its samples, else its builder's sysUsage. */
function createMemoryOf(usage: UsageInputs, targets: readonly TargetSummary[]) {
  return (node: string): number | null =>
    usage.configuredMemoryBytes.get(node) ??
    usage.sampledMemoryBytes.get(node) ??
    targets
      .filter((t) => t.node === node)
      .map((t) => usage.provenance.get(t.target)?.memoryTotalBytes ?? null)
      .find((bytes) => bytes !== null) ??
    null;
}

/** Each RUN step that ran (not cached), its times on the workstation's clock. */
function listRunSteps(
  usage: UsageInputs,
  targets: readonly TargetSummary[],
  clockOffsetsMs: ReadonlyMap<string, number> | undefined,
): RunStep[] {
  return targets.flatMap((target) => {
    const offsetMs = clockOffsetsMs?.get(target.node) ?? 0;
    return (usage.vertices.get(target.target) ?? []).flatMap((vertex): RunStep[] => {
      const command = toRunCommand(vertex.name);
      if (command === undefined || vertex.cached) return [];
      return [{ target: target.target, vertex: shiftVertex(vertex, offsetMs), command }];
    });
  });
}

/** A step's figures: BuildKit's when it sampled the step, else its cgroups' (the largest of several); none: no row. */
function toStepUsage(options: {
  step: RunStep;
  fromBuildkit: Figures | undefined;
  groups: readonly SeenGroup[] | undefined;
  memoryBytes: number | null;
}): StepUsage[] {
  const { step, fromBuildkit, groups } = options;
  const source = fromBuildkit ? 'buildkit' : groups ? 'cgroup' : undefined;
  if (source === undefined) return [];
  const figures = roundFigures(
    fromBuildkit ??
      sumFigures(
        (groups ?? []).map((g) => g.figures),
        'max',
      ),
  );
  return [
    {
      vertex: step.vertex.digest,
      name: step.vertex.name,
      source,
      ...figures,
      flags: toFlags(figures, options.memoryBytes),
    },
  ];
}

/** Nodes that ran RUN steps but whose step_cgroups directory did not exist at any poll: a wrong setting, said. */
function findMissingStepCgroups(
  polls: readonly StepUsagePoll[],
  runSteps: readonly RunStep[],
  nodeOf: ReadonlyMap<string, string>,
): string[] {
  const polled = new Set(polls.map((poll) => poll.node));
  const seen = new Set(polls.filter((poll) => poll.present).map((poll) => poll.node));
  const ran = new Set(runSteps.map((step) => nodeOf.get(step.target)));
  return [...polled]
    .filter((node) => !seen.has(node) && ran.has(node))
    .sort()
    .map(
      (node) =>
        `${node} ran RUN steps, but its step_cgroups directory did not exist at any of its polls: set nodes[].step_cgroups in fleet.yaml to where its buildkitd puts step containers (docs/step-usage.md)`,
    );
}

/** Fills targets[].usage and nodes[].usage; a target with no RUN step measured keeps null. */
export function buildUsage(options: {
  usage: UsageInputs;
  targets: readonly TargetSummary[];
  nodes: readonly NodeSummary[];
  /** Each builder's clock − the workstation's: vertex times are moved onto the polls' clock. Default none. */
  clockOffsetsMs?: ReadonlyMap<string, number>;
}): UsageResult {
  const { usage } = options;
  const memoryOf = createMemoryOf(usage, options.targets);
  const runSteps = listRunSteps(usage, options.targets, options.clockOffsetsMs);
  const nodeOf = new Map(options.targets.map((t) => [t.target, t.node]));
  const { byVertex, notes } = joinGroups({
    groups: foldPolls(usage.polls),
    stepsOn: (node) => runSteps.filter((step) => nodeOf.get(step.target) === node),
    slackMs: toleranceMs(usage.polls),
  });
  const targets = options.targets.map((target) => {
    const steps = runSteps
      .filter((step) => step.target === target.target)
      .flatMap((step) =>
        toStepUsage({
          step,
          fromBuildkit: usage.provenance.get(target.target)?.steps.get(step.vertex.digest),
          groups: byVertex.get(`${target.target}\u0000${step.vertex.digest}`),
          memoryBytes: memoryOf(target.node),
        }),
      );
    const targetUsage: TargetUsage | null =
      steps.length === 0 ? null : { ...roundFigures(sumFigures(steps, 'max')), steps };
    return { ...target, usage: targetUsage };
  });
  const nodes = options.nodes.map((node) => {
    const mine = targets.flatMap((t) => (t.node === node.node && t.usage ? [t.usage] : []));
    const memoryBytes = memoryOf(node.node);
    const nodeUsage: NodeUsage | null =
      mine.length === 0 && memoryBytes === null
        ? null
        : { ...roundFigures(sumFigures(mine, 'max')), memoryBytes };
    return { ...node, usage: nodeUsage };
  });
  notes.push(...findMissingStepCgroups(usage.polls, runSteps, nodeOf));
  const warnings = notes.map((message): ReportWarning => ({
    level: 'note',
    stream: RUN_DIR_FILES.stepUsage,
    message,
  }));
  return { targets, nodes, warnings };
}
