import { describe, expect, it } from 'vitest';
import { matchesStepCommand } from '../../../../src/collect/cgroup/match-step-command.js';
import { toRunCommand } from '../../../../src/collect/buildkit/parse-status-vertices.js';

// The vertex name's RUN line against a step container's process command lines. The RUN line is the one real
// BuildKit v0.32.2 named in fixtures/runs/gfx1201-warm/status-pytorch.jsonl; its Dockerfile line
// (test/fleet/real/bake-project.ts) reads its numbers from ARGs, which the first shell sees unexpanded.
const name =
  '[2/3] RUN box-compile -target pytorch -units 40 -cpu-seconds 3.888 -entry-bytes 8192 -out-bytes 2066667 -out /out';
const line = toRunCommand(name)!;

describe('matchesStepCommand', () => {
  it.each([
    [
      'the shell with the unexpanded line',
      '/bin/sh -c box-compile -target pytorch -units $BOX_UNITS -cpu-seconds $BOX_CPU_SECONDS -entry-bytes $BOX_ENTRY_BYTES -out-bytes $BOX_OUT_BYTES -out /out',
      true,
    ],
    [
      'the command the shell ran, expanded',
      'box-compile -target pytorch -units 40 -cpu-seconds 3.888 -entry-bytes 8192 -out-bytes 2066667 -out /out',
      true,
    ],
    [
      'another target’s same tool',
      'box-compile -target vllm -units 40 -cpu-seconds 3.888 -entry-bytes 8192 -out-bytes 2066667 -out /out',
      false,
    ],
    ['a prefix of the command only', 'box-compile -target pytorch', false],
    ['a bare shell', '/bin/sh', false],
  ])('%s: %s', (_label, cmdline, expected) => {
    expect(matchesStepCommand(cmdline, line)).toBe(expected);
  });

  it('matches one command of a && list, whole, from its start', () => {
    expect(matchesStepCommand('make install', 'make -j8 && make install')).toBe(true);
    expect(matchesStepCommand('make -j8', 'make -j8 && make install')).toBe(true);
    expect(matchesStepCommand('make', 'make -j8 && make install')).toBe(false);
    expect(matchesStepCommand('-j8 && make', 'make -j8 && make install')).toBe(false);
  });

  it('toRunCommand strips the stage prefix and RUN flags; other vertices are not RUN steps', () => {
    expect(line).toBe(
      'box-compile -target pytorch -units 40 -cpu-seconds 3.888 -entry-bytes 8192 -out-bytes 2066667 -out /out',
    );
    expect(toRunCommand('[pytorch 2/3] RUN --mount=type=cache,target=/root/.cache make all')).toBe(
      'make all',
    );
    expect(toRunCommand('[1/3] FROM registry/rocm-base:latest')).toBeUndefined();
    expect(toRunCommand('exporting to image')).toBeUndefined();
  });
});
