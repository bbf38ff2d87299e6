// The tool versions preflight accepts: what `docker buildx version` and `buildx inspect` print, in both layouts.
import { describe, expect, it } from 'vitest';
import { checkToolVersions } from '../../../../../src/run/harness/preflight/check-tool-versions.js';
import {
  parseBuildxInspect,
  parseVersion,
  type BuilderInspect,
} from '../../../../../src/run/executors/parse-buildx-inspect.js';

const oneNode = (buildkit: string | undefined, driver = 'remote'): BuilderInspect => ({
  driver,
  nodes: [{ name: 'n0', status: 'running', buildkit }],
});

describe('tool versions', () => {
  it.each([
    ['github.com/docker/buildx v0.23.0 8e4b4a5', [0, 23, 0]],
    ['github.com/docker/buildx 0.29.1-desktop.1 1a2b3c', [0, 29, 1]],
    ['v0.12', [0, 12, 0]],
    ['no version here', undefined],
  ])('parseVersion(%j)', (text, version) => {
    expect(parseVersion(text)).toEqual(version);
  });

  it('reads the BuildKit version of both inspect layouts', () => {
    const node = (text: string) => parseBuildxInspect(text).nodes[0]?.buildkit;
    expect(node('Nodes:\nName: kiln0\nBuildKit version: v0.28.0\n')).toBe('v0.28.0');
    expect(node('Nodes:\nName: kiln0\nBuildkit:  v0.12.5\n')).toBe('v0.12.5');
    expect(node('Nodes:\nName: kiln0\n')).toBeUndefined();
  });

  it('accepts the minimums, and names every missing feature of an older tool', () => {
    const ok = checkToolVersions({
      buildxVersion: 'github.com/docker/buildx v0.23.0 x',
      builders: new Map([['kiln', oneNode('v0.15.0')]]),
    });
    expect(ok).toEqual({ problems: [], warnings: [] });
    const old = checkToolVersions({
      buildxVersion: 'github.com/docker/buildx v0.20.1 x',
      builders: new Map([
        ['kiln', oneNode('v0.10.6')],
        ['forge', oneNode(undefined)],
      ]),
    });
    expect(old.problems.filter((problem) => problem.startsWith('buildx 0.20.1 is older than'))).toHaveLength(
      2,
    );
    expect(
      old.problems.filter((problem) => problem.startsWith('builder kiln node n0 runs BuildKit v0.10.6')),
    ).toHaveLength(1);
    expect(old.warnings).toEqual([
      expect.stringMatching(/^builder kiln node n0 runs BuildKit v0\.10\.6 older than 0\.15\.0/),
      'builder forge node n0 (status running): `docker buildx inspect` printed no BuildKit version; its BuildKit version is not checked (the run needs ≥ 0.15.0)',
    ]);
    expect(checkToolVersions({ buildxVersion: 'garbage', builders: new Map() }).problems[0]).toContain(
      'no version. Fix: install buildx ≥ 0.23.0',
    );
  });

  it('a commit hash or an unstamped build is an unknown version: a warning, not a refusal', () => {
    for (const text of ['a1b2c3d4e5f6', 'v0.0.0+unknown']) {
      const found = checkToolVersions({
        buildxVersion: 'github.com/docker/buildx v0.36.1',
        builders: new Map([['kiln', oneNode(text)]]),
      });
      expect(found.problems).toEqual([]);
      expect(found.warnings).toEqual([
        `builder kiln node n0: \`docker buildx inspect\` printed \`${text}\`, not a BuildKit release; its BuildKit version is not checked (the run needs ≥ 0.15.0)`,
      ]);
    }
  });
});
