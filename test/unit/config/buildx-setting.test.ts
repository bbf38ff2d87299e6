import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toPlanInputOverrides } from '../../../src/commands/flags/index.js';
import { mergeOverrides, toEnvOverrides, validateConfig } from '../../../src/config/resolve-config.js';

// Which buildx every call runs: defaults (docker buildx) < fleet.yaml bake.buildx < PERF_BUILDX < --buildx.

const SOURCE = '/fleet/fleet.yaml';
const fleet = (bake?: Record<string, string>) => ({
  ...(bake ? { bake } : {}),
  registry: { url: 'http://registry.test:5000' },
  sccache: { url: 'http://cache.test:8080/sccache/', key_prefix: 'rocm/gfx1201' },
  nodes: [{ name: 'alpha', builder: 'alpha', link_mbps: 100, node_exporter: 'http://alpha:9100/metrics' }],
});
const flags = (buildx?: string) =>
  toPlanInputOverrides({
    arch: undefined,
    targets: undefined,
    costs: undefined,
    bakeJson: undefined,
    buildx,
  });

/** What the CLI does: the environment's overrides, then the flags'. */
function resolveBuildx(options: { file?: string; env?: string; flag?: string }) {
  const overrides = mergeOverrides(toEnvOverrides({ PERF_BUILDX: options.env }), flags(options.flag));
  const { config, errors } = validateConfig({
    raw: fleet(options.file === undefined ? undefined : { buildx: options.file }),
    source: SOURCE,
    overrides,
  });
  expect(errors).toEqual([]);
  return config?.buildx;
}

describe('the buildx setting', () => {
  it.each([
    { name: 'unset everywhere: docker buildx', given: {}, expected: undefined },
    {
      name: 'fleet.yaml bake.buildx, relative to fleet.yaml',
      given: { file: 'tools/buildx' },
      expected: { path: '/fleet/tools/buildx', setting: 'bake.buildx in /fleet/fleet.yaml' },
    },
    {
      name: 'PERF_BUILDX over fleet.yaml',
      given: { file: '/usr/local/bin/buildx', env: '/opt/env/buildx' },
      expected: { path: '/opt/env/buildx', setting: 'PERF_BUILDX' },
    },
    {
      name: '--buildx over PERF_BUILDX and fleet.yaml',
      given: { file: '/usr/local/bin/buildx', env: '/opt/env/buildx', flag: '/opt/flag/buildx' },
      expected: { path: '/opt/flag/buildx', setting: '--buildx' },
    },
    {
      name: 'an empty PERF_BUILDX leaves fleet.yaml in charge',
      given: { file: '/usr/local/bin/buildx', env: ' ' },
      expected: { path: '/usr/local/bin/buildx', setting: 'bake.buildx in /fleet/fleet.yaml' },
    },
  ])('$name', ({ given, expected }) => {
    expect(resolveBuildx(given)).toEqual(expected);
  });

  it('a relative PERF_BUILDX or --buildx is taken from the working directory', () => {
    expect(resolveBuildx({ env: 'bin/buildx' })?.path).toBe(path.resolve('bin/buildx'));
    expect(resolveBuildx({ flag: './buildx' })?.path).toBe(path.resolve('buildx'));
  });

  it('fleet.yaml refuses an empty bake.buildx', () => {
    const { errors } = validateConfig({ raw: fleet({ buildx: '' }), source: SOURCE });
    expect(errors).toEqual([expect.stringContaining('bake.buildx')]);
  });
});
