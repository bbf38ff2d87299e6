// The join of step containers' cgroups to RUN steps, the BuildKit source winning, totals and flags. Inputs are
// built by hand; each expected figure is worked out here from the counters given, not read from the product.
import { describe, expect, it } from 'vitest';
import type { NodeSummary, StepUsagePoll, TargetSummary } from '../../../src/artifacts/index.js';
import type { StatusVertex } from '../../../src/collect/buildkit/parse-status-vertices.js';
import { buildUsage } from '../../../src/report/build-usage.js';
import type { UsageInputs } from '../../../src/run-dir/run-inputs.js';

const T0 = Date.parse('2026-12-06T06:00:00Z');
const GiB = 2 ** 30;

const vertex = (
  digest: string,
  name: string,
  startS: number,
  endS: number,
  cached = false,
): StatusVertex => ({
  digest,
  name,
  startedMs: T0 + startS * 1000,
  completedMs: T0 + endS * 1000,
  cached,
});

const v1Files = (cpuNs: number, peak: number, oomKill = 0, pids = 2) => ({
  'cpuacct.usage': `${cpuNs}\n`,
  'memory.max_usage_in_bytes': `${peak}\n`,
  'memory.oom_control': `oom_kill_disable 0\nunder_oom 0\noom_kill ${oomKill}\n`,
  'blkio.throttle.io_service_bytes': '8:0 Read 100\n8:0 Write 200\nTotal 300\n',
  'pids.current': `${pids}\n`,
});

const poll = (node: string, atS: number, groups: StepUsagePoll['groups']): StepUsagePoll => ({
  version: 1,
  node,
  tsMs: T0 + atS * 1000,
  ok: true,
  cgroup: 'v1',
  present: true,
  groups,
});

const target = (name: string, node: string): TargetSummary => ({ target: name, node }) as TargetSummary;
const node = (name: string): NodeSummary => ({ node: name, usage: null }) as unknown as NodeSummary;

const buildA = '[2/3] RUN make -j8 A';
const buildB = '[2/3] RUN make -j8 B';

function inputs(overrides: Partial<UsageInputs> = {}): UsageInputs {
  return {
    polls: [
      poll('forge', 11, [{ id: 'c1', files: v1Files(1e9, 500e6), cmdlines: ['/bin/sh -c make -j8 A'] }]),
      poll('forge', 12, [
        { id: 'c1', files: v1Files(2.5e9, 800e6, 0, 5), cmdlines: ['make -j8 A', 'cc1 x.c'] },
        { id: 'c2', files: v1Files(0.1e9, 10e6), cmdlines: ['make -j8 B'] },
      ]),
      poll('forge', 13, [{ id: 'c2', files: v1Files(0.4e9, 30e6), cmdlines: ['make -j8 B'] }]),
    ],
    vertices: new Map([
      ['a', [vertex('sha256:a1', '[1/3] FROM base', 9, 10), vertex('sha256:a2', buildA, 10.5, 12.2)]],
      ['b', [vertex('sha256:b2', buildB, 11.8, 13.1)]],
      ['c', [vertex('sha256:c2', '[2/3] RUN make -j8 C', 1, 2, true)]],
    ]),
    provenance: new Map(),
    configuredMemoryBytes: new Map([['forge', 0.85 * GiB]]),
    sampledMemoryBytes: new Map(),
    ...overrides,
  };
}

const targets = [target('a', 'forge'), target('b', 'forge'), target('c', 'forge')];

describe('buildUsage', () => {
  it('joins each cgroup to its RUN step by command line and time; the largest reading of each counter wins', () => {
    const result = buildUsage({ usage: inputs(), targets, nodes: [node('forge')] });
    const [a, b, c] = result.targets;
    expect(a!.usage!.steps).toEqual([
      {
        vertex: 'sha256:a2',
        name: buildA,
        source: 'cgroup',
        cpuSeconds: 2.5,
        memoryPeakBytes: 800e6,
        ioReadBytes: 100,
        ioWriteBytes: 200,
        pidsPeak: 5,
        oomEvents: 0,
        // 800 MB is within 10 % of 0.85 GiB (912.7 MB): 800e6 ≥ 0.9 × 912680550 = 821.4e6? No: not flagged.
        flags: [],
      },
    ]);
    expect(b!.usage!.steps[0]).toMatchObject({ vertex: 'sha256:b2', cpuSeconds: 0.4, memoryPeakBytes: 30e6 });
    expect(c!.usage).toBeNull(); // its RUN step was cached: nothing ran
    expect(result.nodes[0]!.usage).toEqual({
      cpuSeconds: 2.9,
      memoryPeakBytes: 800e6,
      ioReadBytes: 200,
      ioWriteBytes: 400,
      pidsPeak: 5,
      oomEvents: 0,
      memoryBytes: 0.85 * GiB,
    });
    expect(result.warnings).toEqual([]);
  });

  it('flags memory-near-limit within 10 % of the node’s memory, and oom on an OOM kill', () => {
    const usage = inputs({ configuredMemoryBytes: new Map([['forge', 880e6]]) });
    usage.polls = [
      ...usage.polls,
      poll('forge', 14, [{ id: 'c2', files: v1Files(0.5e9, 40e6, 1), cmdlines: [] }]),
    ];
    const [a, b] = buildUsage({ usage, targets, nodes: [node('forge')] }).targets;
    // 800e6 ≥ 0.9 × 880e6 = 792e6
    expect(a!.usage!.steps[0]!.flags).toEqual(['memory-near-limit']);
    expect(b!.usage!.steps[0]!.flags).toEqual(['oom']);
  });

  it('two steps with the same command at overlapping times: not attributed, and said', () => {
    const usage = inputs({
      vertices: new Map([
        ['a', [vertex('sha256:a2', buildA, 10.5, 12.2)]],
        ['b', [vertex('sha256:b9', buildA, 10, 12.5)]],
      ]),
    });
    const result = buildUsage({ usage, targets, nodes: [node('forge')] });
    expect(result.targets[0]!.usage).toBeNull();
    expect(result.warnings.map((w) => w.message)).toContainEqual(
      expect.stringMatching(/^cgroup c1 on forge matches 2 RUN steps by command and time .*not attributed$/),
    );
  });

  it('a cached step with the same command at the same time is no candidate (nothing ran for it)', () => {
    const usage = inputs({
      vertices: new Map([
        ['a', [vertex('sha256:a2', buildA, 10.5, 12.2)]],
        ['c', [vertex('sha256:c9', buildA, 10.6, 10.7, true)]],
      ]),
    });
    const result = buildUsage({ usage, targets, nodes: [node('forge')] });
    expect(result.targets[0]!.usage?.steps.map((s) => s.vertex)).toEqual(['sha256:a2']);
    expect(result.targets[2]!.usage).toBeNull();
  });

  it('a cgroup whose command matches a step far from its time is not attributed', () => {
    const usage = inputs({ vertices: new Map([['a', [vertex('sha256:a2', buildA, 100, 110)]]]) });
    const result = buildUsage({ usage, targets, nodes: [node('forge')] });
    expect(result.targets[0]!.usage).toBeNull();
    expect(result.warnings.map((w) => w.message)).toContainEqual(
      expect.stringMatching(
        /^cgroup c1 on forge \(\/bin\/sh -c make -j8 A\) matches no RUN step .* at its time/,
      ),
    );
  });

  it('moves the vertex times by the builder’s clock offset before matching (a builder 60 s ahead)', () => {
    const ahead = inputs({ vertices: new Map([['a', [vertex('sha256:a2', buildA, 70.5, 72.2)]]]) });
    expect(buildUsage({ usage: ahead, targets, nodes: [node('forge')] }).targets[0]!.usage).toBeNull();
    const aligned = buildUsage({
      usage: ahead,
      targets,
      nodes: [node('forge')],
      clockOffsetsMs: new Map([['forge', 60_000]]),
    });
    expect(aligned.targets[0]!.usage?.steps[0]?.cpuSeconds).toBe(2.5);
  });

  it('BuildKit’s provenance figures win over the cgroup poll (source buildkit)', () => {
    const usage = inputs({
      provenance: new Map([
        [
          'a',
          {
            steps: new Map([
              [
                'sha256:a2',
                {
                  cpuSeconds: 3,
                  memoryPeakBytes: 900e6,
                  ioReadBytes: 1,
                  ioWriteBytes: 2,
                  pidsPeak: 7,
                  oomEvents: 0,
                },
              ],
            ]),
            memoryTotalBytes: 16e9,
          },
        ],
      ]),
    });
    const step = buildUsage({ usage, targets, nodes: [node('forge')] }).targets[0]!.usage!.steps[0]!;
    expect(step).toMatchObject({ source: 'buildkit', cpuSeconds: 3, memoryPeakBytes: 900e6, pidsPeak: 7 });
  });

  it('a node whose step_cgroups directory never existed while it ran RUN steps is named, with the setting', () => {
    const absent = (atS: number): StepUsagePoll => ({ ...poll('forge', atS, []), present: false });
    const result = buildUsage({
      usage: inputs({ polls: [absent(11), absent(12), absent(13)] }),
      targets,
      nodes: [node('forge')],
    });
    expect(result.warnings.map((w) => w.message)).toEqual([
      'forge ran RUN steps, but its step_cgroups directory did not exist at any of its polls: set nodes[].step_cgroups in fleet.yaml to where its buildkitd puts step containers (docs/step-usage.md)',
    ]);
  });

  it('the node’s memory falls back to its sampled MemTotal without memory_gb', () => {
    const usage = inputs({
      configuredMemoryBytes: new Map(),
      sampledMemoryBytes: new Map([['forge', 64e9]]),
    });
    expect(buildUsage({ usage, targets, nodes: [node('forge')] }).nodes[0]!.usage!.memoryBytes).toBe(64e9);
  });
});
