// The tool versions preflight accepts: what `docker buildx version` and `buildx inspect` print, in both layouts.
import { describe, expect, it } from 'vitest';
import {
  checkToolVersions,
  parseInspectBuildkitVersion,
  parseVersion,
} from '../../../src/run/check-tool-versions.js';

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
    expect(parseInspectBuildkitVersion('Nodes:\nName: kiln0\nBuildKit version: v0.28.0\n')).toBe('v0.28.0');
    expect(parseInspectBuildkitVersion('Nodes:\nName: kiln0\nBuildkit:  v0.12.5\n')).toBe('v0.12.5');
    expect(parseInspectBuildkitVersion('Nodes:\nName: kiln0\n')).toBeUndefined();
  });

  it('accepts the minimums, and names every missing feature of an older tool', () => {
    const builders = new Map([['kiln', 'v0.15.0']]);
    expect(
      checkToolVersions({ buildxVersion: 'github.com/docker/buildx v0.23.0 x', buildkitVersions: builders }),
    ).toEqual([]);
    const old = checkToolVersions({
      buildxVersion: 'github.com/docker/buildx v0.20.1 x',
      buildkitVersions: new Map([
        ['kiln', 'v0.10.6'],
        ['forge', undefined],
      ]),
    });
    expect(old.filter((problem) => problem.startsWith('buildx 0.20.1 is older than'))).toHaveLength(2);
    expect(old.filter((problem) => problem.startsWith('builder kiln runs BuildKit v0.10.6'))).toHaveLength(2);
    expect(old).toContain(
      'builder forge: `docker buildx inspect` printed no BuildKit version. Fix: check the builder runs BuildKit ≥ 0.15.0',
    );
    expect(checkToolVersions({ buildxVersion: 'garbage', buildkitVersions: new Map() })[0]).toContain(
      'no version. Fix: install buildx ≥ 0.23.0',
    );
  });
});
