// The step-usage sampler with a fake node link: one remote command per poll per node (the cgroup loop), each answer
// one line, a failed poll a gap line and a fresh connection, and stop() ending a poll in flight. The answers are the
// real v1 dump of test/fixtures/cgroup (README there).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StepUsageSampleSchema, type StepUsageSample } from '../../../../src/artifacts/index.js';
import type { ConnectRemoteHost } from '../../../../src/run/executors/remote-host.js';
import { startStepUsage } from '../../../../src/run/sampling/start-step-usage.js';
import { createStepUsageSampler } from '../../../../src/run/sampling/step-usage-sampler.js';
import type { FleetNode } from '../../../../src/config/schema.js';

const dump = readFileSync(new URL('../../../fixtures/cgroup/v1-dump-python-alloc-64mb.txt', import.meta.url));
const ssh = (host: string) => ({ host });

interface FakeLink {
  connect: ConnectRemoteHost;
  commands: { host: string; command: string }[];
  connections: string[];
  closed: string[];
}

function createFakeLink(answer: (host: string, call: number) => 'ok' | 'fail' | 'hang'): FakeLink {
  const link: FakeLink = { connect: undefined as never, commands: [], connections: [], closed: [] };
  let calls = 0;
  link.connect = (target) => {
    link.connections.push(target.host);
    let onClose: (() => void) | undefined;
    return Promise.resolve({
      label: target.host,
      run: (command: string) => {
        link.commands.push({ host: target.host, command });
        const mode = answer(target.host, calls++);
        if (mode === 'fail') return Promise.reject(new Error('channel open failure'));
        if (mode === 'hang')
          return new Promise((_resolve, reject) => (onClose = () => reject(new Error('connection closed'))));
        return Promise.resolve({ exitCode: 0, stdout: dump, stderr: '' });
      },
      close: () => {
        link.closed.push(target.host);
        onClose?.();
      },
    });
  };
  return link;
}

const clock = { nowMs: () => Date.now() };
const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('createStepUsageSampler', () => {
  it('polls each node with one command per poll and passes each answer on as a line', async () => {
    const link = createFakeLink(() => 'ok');
    const samples: StepUsageSample[] = [];
    const sampler = createStepUsageSampler({
      nodes: [
        { name: 'forge', ssh: ssh('forge'), stepCgroups: 'buildkit' },
        { name: 'anvil', ssh: ssh('anvil'), stepCgroups: 'n/compile/buildkit' },
      ],
      intervalMs: 10,
      connect: link.connect,
      onSample: (sample) => samples.push(sample),
      clock,
    });
    sampler.start();
    await waitFor(() => samples.filter((s) => s.node === 'anvil').length >= 3);
    await sampler.stop();
    expect(new Set(link.connections)).toEqual(new Set(['forge', 'anvil']));
    expect(link.connections).toHaveLength(2); // one connection per node, kept
    expect(link.commands.length).toBe(samples.length); // one command per poll
    expect(link.commands.find((c) => c.host === 'anvil')?.command).toContain("D='n/compile/buildkit'");
    const first = samples.find((s) => s.node === 'forge');
    expect(StepUsageSampleSchema.parse(first)).toMatchObject({
      ok: true,
      cgroup: 'v1',
      present: true,
      groups: [{ id: 'c0ffee', files: { 'cpuacct.usage': '606665927\n' } }],
    });
  });

  it('a failed poll is a gap line; the next poll opens the link again', async () => {
    const link = createFakeLink((_host, call) => (call === 0 ? 'fail' : 'ok'));
    const samples: StepUsageSample[] = [];
    const sampler = createStepUsageSampler({
      nodes: [{ name: 'forge', ssh: ssh('forge'), stepCgroups: 'buildkit' }],
      intervalMs: 5,
      connect: link.connect,
      onSample: (sample) => samples.push(sample),
      clock,
    });
    sampler.start();
    await waitFor(() => samples.length >= 2);
    await sampler.stop();
    expect(samples[0]).toMatchObject({ ok: false, error: 'channel open failure' });
    expect(samples[1]).toMatchObject({ ok: true });
    expect(link.connections).toEqual(['forge', 'forge']);
  });

  it('stop() ends a poll in flight at once (its connection closed) and records nothing for it', async () => {
    const link = createFakeLink(() => 'hang');
    const samples: StepUsageSample[] = [];
    const sampler = createStepUsageSampler({
      nodes: [{ name: 'forge', ssh: ssh('forge'), stepCgroups: 'buildkit' }],
      intervalMs: 1000,
      connect: link.connect,
      onSample: (sample) => samples.push(sample),
      clock,
    });
    sampler.start();
    await waitFor(() => link.commands.length === 1);
    await sampler.stop();
    expect(samples).toEqual([]);
    expect(link.closed).toContain('forge');
  });
});

describe('startStepUsage', () => {
  let dir: string | undefined;
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('writes step-usage.jsonl from the nodes with ssh and names those without', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'step-usage-'));
    const file = path.join(dir, 'step-usage.jsonl');
    const warnings: string[] = [];
    const node = (name: string, withSsh: boolean) =>
      ({ name, ssh: withSsh ? ssh(name) : undefined, stepCgroups: 'buildkit' }) as FleetNode;
    const link = createFakeLink(() => 'ok');
    const capture = startStepUsage({
      nodes: [node('forge', true), node('kiln', false)],
      path: file,
      sampleIntervalMs: 5,
      createSampler: (options) => createStepUsageSampler({ ...options, connect: link.connect, clock }),
      openDigest: () => undefined,
      onWriteError: (error) => warnings.push(error.message),
      onWarning: (warning) => warnings.push(warning),
    });
    await waitFor(() => link.commands.length >= 2);
    await capture.stop();
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines)
      expect(StepUsageSampleSchema.parse(line)).toMatchObject({ node: 'forge', ok: true });
    expect(warnings).toEqual([
      "step usage is not sampled on kiln: no `ssh` in fleet.yaml (docs/step-usage.md); their RUN steps get BuildKit's own figures only",
    ]);
  });
});
