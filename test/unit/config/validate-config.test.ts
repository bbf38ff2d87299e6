import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseYamlWithLines } from '../../../src/config/parse-fleet-yaml.js';
import { toEnvOverrides, mergeOverrides, validateConfig } from '../../../src/config/resolve-config.js';
import { renderFleetJsonSchema } from '../../../src/config/fleet-json-schema.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const SOURCE = '/fleet/fleet.yaml';

const base = `
registry:
  url: http://registry.test:5000
sccache:
  url: http://cache.test:8080/sccache/
  key_prefix: rocm/gfx1201
nodes:
  - name: alpha
    builder: alpha
    link_mbps: 100
    node_exporter: http://alpha:9100/metrics
  - name: beta
    builder: beta
    link_mbps: 4.3
    speed: 1.2
    node_exporter: http://beta:9100/metrics
`;

function validate(text: string, overrides = {}) {
  const parsed = parseYamlWithLines(text, SOURCE);
  expect(parsed.errors).toEqual([]);
  return validateConfig({ raw: parsed.value, source: SOURCE, lineOf: parsed.lineOf, overrides });
}

describe('validateConfig', () => {
  it('samples.prometheus: instance labels default to the node_exporter host:port; instances override them', () => {
    const { config, errors } = validate(
      `${base}samples:\n  prometheus: http://prom.test:9090/\n  instances:\n    beta: beta.lan:9100\n`,
    );
    expect(errors).toEqual([]);
    expect(config?.samples).toEqual({ prometheusUrl: 'http://prom.test:9090' });
    expect(config?.nodes.map((node) => node.prometheusInstance)).toEqual(['alpha:9100', 'beta.lan:9100']);
    expect(validate(base).config?.samples).toBeUndefined();
  });

  it('buildkit_debug: host:port as the node sees it (IPv6 in brackets), reached over the node ssh', () => {
    const withDebug = base
      .replace(
        '    node_exporter: http://alpha:9100/metrics\n',
        '    node_exporter: http://alpha:9100/metrics\n    ssh: { host: alpha.test }\n    buildkit_debug: 127.0.0.1:6060\n',
      )
      .replace(
        '    node_exporter: http://beta:9100/metrics\n',
        '    node_exporter: http://beta:9100/metrics\n    ssh: { host: beta.test }\n    buildkit_debug: "[::1]:6061"\n',
      );
    const { config, errors } = validate(withDebug);
    expect(errors).toEqual([]);
    expect(config?.nodes.map((node) => node.buildkitDebug)).toEqual([
      { host: '127.0.0.1', port: 6060 },
      { host: '::1', port: 6061 },
    ]);
    expect(validate(base).config?.nodes.map((node) => node.buildkitDebug)).toEqual([undefined, undefined]);
  });

  it('buildkit_debug: a bad address, or a node without ssh, is an error naming the line, key and fix', () => {
    const bad = validate(
      base.replace(
        '    node_exporter: http://alpha:9100/metrics\n',
        '    node_exporter: http://alpha:9100/metrics\n    ssh: { host: alpha.test }\n    buildkit_debug: http://127.0.0.1:6060\n',
      ),
    );
    expect(bad.errors).toEqual([
      expect.stringMatching(
        /^\/fleet\/fleet\.yaml:\d+: nodes\[0\]\.buildkit_debug: .*expected host:port as the node sees it, e\.g\. 127\.0\.0\.1:6060/,
      ) as string,
    ]);
    const noSsh = validate(
      base.replace(
        '    node_exporter: http://beta:9100/metrics\n',
        '    node_exporter: http://beta:9100/metrics\n    buildkit_debug: 127.0.0.1:6060\n',
      ),
    );
    expect(noSsh.errors).toEqual([
      expect.stringMatching(
        /^\/fleet\/fleet\.yaml:\d+: nodes\[1\]\.buildkit_debug: node `beta` has no `ssh` settings, .*Fix: add ssh to that node, or remove buildkit_debug\.$/,
      ) as string,
    ]);
  });

  it('samples.instances must name nodes', () => {
    const { errors } = validate(
      `${base}samples:\n  prometheus: http://prom.test:9090\n  instances:\n    gamma: g:9100\n`,
    );
    expect(errors).toEqual([
      expect.stringContaining('samples.instances.gamma: no node is called `gamma`') as string,
    ]);
  });

  it('resolves a minimal fleet with defaults, camelCase and absolute paths', () => {
    const { config, errors } = validate(base);
    expect(errors).toEqual([]);
    expect(config?.arch).toBe('gfx1201');
    expect(config?.targets).toEqual(['wheels', 'pytorch']);
    expect(config?.costsPath).toBe('/fleet/.builders/target-costs');
    expect(config?.registry).toMatchObject({
      url: 'http://registry.test:5000',
      name: 'rocm',
      coldSuffix: '-coldrun',
      logFormat: 'zot',
    });
    expect(config?.nodes.map((n) => [n.name, n.linkMbps, n.speed])).toEqual([
      ['alpha', 100, 1],
      ['beta', 4.3, 1.2],
    ]);
  });

  it.each([
    [
      'an unknown key',
      base.replace('    speed: 1.2', '    sped: 1.2'),
      /fleet\.yaml:15: nodes\[1\]\.sped: unknown key\. Fix: did you mean `speed`\? Rename it\.$/,
    ],
    [
      'a wrong type',
      base.replace('link_mbps: 100', 'link_mbps: fast'),
      /fleet\.yaml:10: nodes\[0\]\.link_mbps: expected a number, got `"fast"` \(string\)\. Fix: write a number\.$/,
    ],
    [
      'a missing field',
      base.replace('    builder: beta\n', ''),
      /nodes\[1\]\.builder: missing \(expected a string\)\. Fix: add `builder: <string>`\.$/,
    ],
    [
      'a non-positive link',
      base.replace('link_mbps: 100', 'link_mbps: 0'),
      /fleet\.yaml:10: nodes\[0\]\.link_mbps: must be more than 0, got `0` \(number\)\. Fix: use a value > 0, e\.g\. 1\.$/,
    ],
    [
      'a bad URL',
      base.replace('http://alpha:9100/metrics', 'alpha:9100'),
      /nodes\[0\]\.node_exporter: .*`"alpha:9100"`/,
    ],
  ])('names file, line, key, value and fix for %s', (_name, text, pattern) => {
    const { config, errors } = validate(text);
    expect(config).toBeUndefined();
    expect(errors.join('\n')).toMatch(pattern);
  });

  it('rejects a duplicate node name at the line of the second one', () => {
    const { errors } = validate(base.replace('name: beta', 'name: alpha'));
    expect(errors).toEqual([
      expect.stringMatching(
        /fleet\.yaml:12: nodes\[1\]\.name: duplicate node `alpha` \(first at nodes\[0\]\)/,
      ),
    ]);
  });

  it('lists every problem at once', () => {
    const text = base
      .replace('link_mbps: 100', 'link_mbps: -1')
      .replace('speed: 1.2', 'speed: fast\n    colour: red');
    const { errors } = validate(text);
    expect(errors.length).toBe(3);
  });

  it('requires log hosts to resolve to a node with ssh', () => {
    const text = base.replace(
      '  key_prefix: rocm/gfx1201',
      '  key_prefix: rocm/gfx1201\n  log:\n    node: gamma\n    path: /var/log/x.log',
    );
    const { errors } = validate(text);
    expect(errors).toEqual([
      expect.stringMatching(/sccache\.log\.node: no node named `gamma`\. Fix: use one of alpha, beta/),
    ]);
  });

  // PERF_ARCH and PERF_TARGETS reach the config as --arch and --targets (commander's env, program-flags.test.ts).
  it('applies precedence defaults < file < env < flags', () => {
    const env = toEnvOverrides({ REGISTRY_NAME: 'ci', PERF_ARCH: 'ignored here: a flag carries it' });
    const flags = { arch: 'gfx942', targets: ['vllm-wheel', 'triton-wheel'] };
    const perArch = `${base.replace('key_prefix: rocm/gfx1201', 'key_prefix: rocm/{arch}')}costs: costs.{arch}\n`;
    const { config } = validate(`arch: gfx1100\n${perArch}`, mergeOverrides(env, flags));
    expect(config?.arch).toBe('gfx942');
    expect(config?.targets).toEqual(['vllm-wheel', 'triton-wheel']);
    expect(config?.registry.name).toBe('ci');
  });

  it('reports YAML syntax errors with a line', () => {
    const parsed = parseYamlWithLines('nodes:\n  - name: [unclosed\n', SOURCE);
    expect(parsed.errors[0]).toMatch(/^\/fleet\/fleet\.yaml:\d+: YAML syntax/);
  });

  it('accepts the shipped fleet.yaml', () => {
    const text = readFileSync(path.join(repoRoot, 'fleet.yaml'), 'utf8');
    const { config, errors } = validate(text);
    expect(errors).toEqual([]);
    expect(config?.nodes.map((n) => n.name)).toEqual(['strix', 'forge', 'anvil', 'bench', 'kiln']);
    expect(config?.sccache.log?.ssh.host).toBe('strix.fleet.lan');
  });
});

describe('rocm-perf.schema.json', () => {
  it('matches the zod schema (run `npx tsx scripts/generate-schema.ts` after changing it)', async () => {
    await expect(renderFleetJsonSchema()).toMatchFileSnapshot(path.join(repoRoot, 'rocm-perf.schema.json'));
  });
});

describe('--arch selects the architecture', () => {
  const templated = base
    .replace('key_prefix: rocm/gfx1201', 'key_prefix: rocm/{arch}')
    .concat('costs: .builders/target-costs.{arch}\nbake:\n  print: .builders/bake-print.{arch}.json\n');

  it('fills {arch} into the costs, the saved bake print and the sccache prefix; the bake variable defaults to GFX_ARCH', () => {
    const { config, errors } = validate(templated, { arch: 'gfx1250' });
    expect(errors).toEqual([]);
    expect(config).toMatchObject({
      arch: 'gfx1250',
      costsPath: '/fleet/.builders/target-costs.gfx1250',
      bakePrintPath: '/fleet/.builders/bake-print.gfx1250.json',
      archVariable: 'GFX_ARCH',
      sccache: { keyPrefix: 'rocm/gfx1250' },
    });
    expect(
      validate(`${templated.replace('bake:\n', 'bake:\n  arch_variable: AMDGPU_TARGET\n')}`).config
        ?.archVariable,
    ).toBe('AMDGPU_TARGET');
  });

  it('refuses another arch when a file or the prefix does not depend on it, naming each and the fix', () => {
    const { config, errors } = validate(base.concat('bake:\n  print: .builders/bake-print.gfx1201.json\n'), {
      arch: 'gfx1250',
      archFrom: '--arch gfx1250',
    });
    expect(config).toBeUndefined();
    expect(errors).toEqual([
      "/fleet/fleet.yaml: --arch gfx1250: this fleet.yaml has files for gfx1201 only (its `arch:`): costs, bake.print, sccache.key_prefix do not depend on the arch, so a run would use gfx1201's files and cache prefix under the name gfx1250. Fix: use --arch gfx1201, or template with {arch}: costs: .builders/target-costs (e.g. .builders/target-costs.{arch}); bake.print: .builders/bake-print.gfx1201.json (e.g. .builders/bake-print.{arch}.json); sccache.key_prefix: rocm/gfx1201 (e.g. rocm/{arch}), and give gfx1250 its own files.",
    ]);
    // fleet.yaml's own arch needs no template.
    expect(validate(base).errors).toEqual([]);
  });
});
