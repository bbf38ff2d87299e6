// `docker buildx inspect` and `docker buildx version` as real buildx prints them (fixtures README).
import { describe, expect, it } from 'vitest';
import { checkToolVersions } from '../../../../../src/run/harness/preflight/check-tool-versions.js';
import { parseBuildxInspect } from '../../../../../src/run/executors/parse-buildx-inspect.js';
import { readRealFixture } from '../../../../helpers/read-real-fixture.js';

const buildxVersion = readRealFixture('buildx-version.txt');
const check = (name: string) =>
  checkToolVersions({ buildxVersion, builders: new Map([['b', parseBuildxInspect(readRealFixture(name))]]) });

describe('buildx inspect (real)', () => {
  it('a remote builder: driver, one node, BuildKit v0.32.2; buildx v0.36.1 passes every minimum', () => {
    expect(parseBuildxInspect(readRealFixture('buildx-inspect-remote.txt'))).toEqual({
      driver: 'remote',
      nodes: [{ name: 'p270', status: 'running', buildkit: 'v0.32.2' }],
    });
    expect(check('buildx-inspect-remote.txt')).toEqual({ problems: [], warnings: [] });
  });

  it('the oldest supported pair (buildx v0.23.0, BuildKit v0.17.3) passes', () => {
    const builders = new Map([['old', parseBuildxInspect(readRealFixture('buildx-inspect-old-pair.txt'))]]);
    expect(builders.get('old')?.nodes).toEqual([{ name: 'p27old0', status: 'running', buildkit: 'v0.17.3' }]);
    expect(checkToolVersions({ buildxVersion: readRealFixture('buildx-version-old.txt'), builders })).toEqual(
      {
        problems: [],
        warnings: [],
      },
    );
  });

  it('BuildKit v0.14.1 (no Finalize): a warning, not a refusal', () => {
    const found = check('buildx-inspect-v0.14.1.txt');
    expect(found.problems).toEqual([]);
    expect(found.warnings).toEqual([
      expect.stringMatching(
        /^builder b node p27v140 runs BuildKit v0\.14\.1 older than 0\.15\.0, the first with finalising/,
      ),
    ]);
  });

  it('checks every node of a builder, not the first one found', () => {
    expect(parseBuildxInspect(readRealFixture('buildx-inspect-two-nodes.txt')).nodes).toEqual([
      { name: 'p27multi0', status: 'running', buildkit: 'v0.32.2' },
      { name: 'p27multi-b', status: 'running', buildkit: 'v0.32.2' },
    ]);
    const inactive = parseBuildxInspect(readRealFixture('buildx-inspect-inactive-node.txt'));
    expect(inactive.nodes.map((node) => [node.name, node.status, node.buildkit])).toEqual([
      ['p27multi0', 'running', 'v0.32.2'],
      ['p27multi-b', 'running', 'v0.32.2'],
      ['p27multi-down', 'inactive', undefined],
    ]);
    expect(check('buildx-inspect-inactive-node.txt')).toEqual({
      problems: [],
      warnings: [
        'builder b node p27multi-down (status inactive): `docker buildx inspect` printed no BuildKit version; its BuildKit version is not checked (the run needs ≥ 0.15.0)',
      ],
    });
  });

  it('the docker driver of an older buildx prints the Docker Engine version, which passes no BuildKit minimum', () => {
    const inspect = parseBuildxInspect(readRealFixture('buildx-inspect-docker-driver-published.txt'));
    expect(inspect).toEqual({
      driver: 'docker',
      nodes: [{ name: 'default', status: 'running', buildkit: '20.10.21' }],
    });
    const found = check('buildx-inspect-docker-driver-published.txt');
    expect(found.problems).toEqual([]);
    expect(found.warnings).toEqual([
      "builder b node default: the docker driver printed `20.10.21`, the Docker Engine's version, not BuildKit's; its BuildKit version is not checked (the run needs ≥ 0.15.0). Fix: upgrade buildx (it then prints the engine's BuildKit version) or use a docker-container or remote builder",
    ]);
  });
});
