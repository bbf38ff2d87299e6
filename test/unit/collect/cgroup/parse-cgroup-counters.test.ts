// The cgroup counter parse on a real v1 dump and a v2 file set (test/fixtures/cgroup/README.md says which part of
// each is real). Expected figures are read off the fixture text by hand, not from the parser.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCgroupCounters } from '../../../../src/collect/cgroup/parse-cgroup-counters.js';
import { parseCgroupDump } from '../../../../src/collect/cgroup/parse-cgroup-dump.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../fixtures/cgroup/${name}`, import.meta.url), 'utf8');

describe('cgroup v1 (real dump)', () => {
  const dump = parseCgroupDump(fixture('v1-dump-python-alloc-64mb.txt'));

  it('reads the dump: one group, its files and its process', () => {
    expect(dump.cgroup).toBe('v1');
    expect(dump.present).toBe(true);
    expect(dump.groups.map((g) => g.id)).toEqual(['c0ffee']);
    expect(Object.keys(dump.groups[0]!.files).sort()).toEqual([
      'blkio.throttle.io_service_bytes',
      'cpuacct.usage',
      'memory.failcnt',
      'memory.max_usage_in_bytes',
      'memory.oom_control',
      'pids.current',
    ]);
    expect(dump.groups[0]!.cmdlines).toHaveLength(1);
    expect(dump.groups[0]!.cmdlines[0]).toMatch(
      /^\/root\/\.pyenv\/versions\/3\.11\.7\/bin\/python3 -c {2}import os/,
    );
  });

  it('gives CPU seconds from cpuacct.usage (ns), the peak from max_usage_in_bytes, oom_kill', () => {
    expect(parseCgroupCounters('v1', dump.groups[0]!.files)).toEqual({
      cpuSeconds: 0.606665927,
      memoryPeakBytes: 76627968,
      memoryCurrentBytes: null,
      ioReadBytes: 0,
      ioWriteBytes: 0,
      pidsPeak: 1,
      oomEvents: 0,
    });
  });

  it('sums blkio Read and Write over devices, not the Total line (kernel blkio-controller format)', () => {
    const io =
      '8:0 Read 4096\n8:0 Write 8192\n8:0 Sync 0\n8:16 Read 100\n8:16 Write 1\n8:16 Total 101\nTotal 12389\n';
    const figures = parseCgroupCounters('v1', { 'blkio.throttle.io_service_bytes': io });
    expect([figures.ioReadBytes, figures.ioWriteBytes]).toEqual([4196, 8193]);
  });

  it('a missing or garbled counter is null, never 0', () => {
    const figures = parseCgroupCounters('v1', {
      'cpuacct.usage': 'x\n',
      'memory.oom_control': 'oom_kill_disable 0\n',
    });
    expect(figures).toEqual({
      cpuSeconds: null,
      memoryPeakBytes: null,
      memoryCurrentBytes: null,
      ioReadBytes: null,
      ioWriteBytes: null,
      pidsPeak: null,
      oomEvents: null,
    });
  });
});

describe('cgroup v2 (cpu.stat real, the rest in the kernel docs’ formats)', () => {
  const dump = parseCgroupDump(fixture('v2-dump-kernel-docs.txt'));
  const group = dump.groups[0]!;

  it('reads usage_usec, memory.peak, memory.events oom_kill, io.stat bytes and pids.peak', () => {
    expect(dump.cgroup).toBe('v2');
    expect(parseCgroupCounters('v2', group.files)).toEqual({
      cpuSeconds: 15406.135417,
      memoryPeakBytes: 2147483648,
      memoryCurrentBytes: 104857600,
      ioReadBytes: 1459200 + 90430464,
      ioWriteBytes: 314773504 + 299008000,
      pidsPeak: 17,
      oomEvents: 1,
    });
    expect(group.cmdlines).toEqual(['/bin/sh -c make -j8 && make install', 'make -j8']);
  });

  it('without pids.peak (kernel < 6.1) takes pids.current; without memory.peak the peak is null', () => {
    const { 'pids.peak': _pids, 'memory.peak': _peak, ...older } = group.files;
    const figures = parseCgroupCounters('v2', older);
    expect(figures.pidsPeak).toBe(3);
    expect(figures.memoryPeakBytes).toBeNull();
    expect(figures.memoryCurrentBytes).toBe(104857600);
  });
});

describe('parseCgroupDump', () => {
  it('says when the step cgroups directory is absent', () => {
    expect(parseCgroupDump('@@cgroup v1\n@@absent\n')).toEqual({ cgroup: 'v1', present: false, groups: [] });
  });

  it('refuses an answer that is not the loop’s (a login banner)', () => {
    expect(() => parseCgroupDump('Welcome to node\n@@cgroup v1\n')).toThrow(
      /expected '@@cgroup v1\|v2' first/,
    );
    expect(() => parseCgroupDump('@@cgroup v2\nstray\n')).toThrow(/line 2: text outside a counter file/);
  });

  it('drops the empty command line of a process that exited between cgroup.procs and its cmdline', () => {
    const dump = parseCgroupDump('@@cgroup v2\n@@group a\n@@cmdline 7\n\n@@cmdline 8\nmake\n');
    expect(dump.groups[0]!.cmdlines).toEqual(['make']);
  });
});
