import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  describeBuildxProblem,
  readBuildxProblem,
  readExecutableStatus,
} from '../../../../src/run/executors/check-buildx-binary.js';

const dir = mkdtempSync(path.join(tmpdir(), 'rocm-perf-buildx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeFile(name: string, mode: number): string {
  const file = path.join(dir, name);
  writeFileSync(file, '#!/bin/sh\n');
  chmodSync(file, mode);
  return file;
}

describe('readExecutableStatus', () => {
  it('an executable file is ok; missing, a directory and a file without x bits are not', async () => {
    const subdir = path.join(dir, 'a-dir');
    mkdirSync(subdir);
    expect(await readExecutableStatus(writeFile('buildx', 0o755))).toBe('ok');
    expect(await readExecutableStatus(path.join(dir, 'nope'))).toBe('missing');
    expect(await readExecutableStatus(path.join(dir, 'buildx', 'below-a-file'))).toBe('missing');
    expect(await readExecutableStatus(subdir)).toBe('not-a-file');
    expect(await readExecutableStatus(writeFile('plain', 0o644))).toBe('not-executable');
  });
});

describe('describeBuildxProblem', () => {
  it.each([
    {
      status: 'missing' as const,
      setting: 'PERF_BUILDX',
      expected:
        "buildx binary /opt/bx/buildx (PERF_BUILDX) does not exist. Fix: install a standalone buildx release there (chmod +x), or give the binary's full path (e.g. `command -v buildx`); or correct PERF_BUILDX, or unset it to run `docker buildx`",
    },
    {
      status: 'not-executable' as const,
      setting: '--buildx',
      expected:
        'buildx binary /opt/bx/buildx (--buildx) is not executable by this user. Fix: `chmod +x /opt/bx/buildx`; or correct --buildx, or drop it to run `docker buildx`',
    },
    {
      status: 'not-a-file' as const,
      setting: 'bake.buildx in /f/fleet.yaml',
      expected:
        'buildx binary /opt/bx/buildx (bake.buildx in /f/fleet.yaml) is not a file. Fix: give the path of the buildx binary itself; or correct bake.buildx in fleet.yaml, or remove it to run `docker buildx`',
    },
    { status: 'ok' as const, setting: 'PERF_BUILDX', expected: undefined },
  ])('$status, set by $setting', ({ status, setting, expected }) => {
    expect(describeBuildxProblem({ path: '/opt/bx/buildx', setting }, status)).toBe(expected);
  });

  it('unset: no problem, and nothing read', async () => {
    expect(await readBuildxProblem(undefined)).toBeUndefined();
  });
});
