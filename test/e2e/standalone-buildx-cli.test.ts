import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlanFileSchema } from '../../src/artifacts/index.js';
import { findToolBinary, pinnedVersion } from '../fleet/real/tools.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';

// `rocm-perf plan` on a machine with no docker CLI: the bake print comes from the REAL standalone buildx (the
// pinned release test/tools/build-tools.sh builds; no daemon needed for `bake --print`). PATH holds no `docker`
// (it lives in /usr/local/bin here), so a plan that succeeds got its print from the standalone binary.
const PATH = '/usr/bin:/bin';

const bakeFile = `variable "GFX_ARCH" { default = "gfx1201" }
group "wheels" { targets = ["base", "wheel"] }
target "base" {
  dockerfile = "base.Dockerfile"
  tags = ["registry.test:5000/rocm/base:\${GFX_ARCH}"]
}
target "wheel" {
  contexts = { base = "target:base" }
  tags = ["registry.test:5000/rocm/wheel:\${GFX_ARCH}"]
}
`;

const fleetFile = (buildx: string | undefined) => `arch: gfx1201
targets: [wheels]
costs: target-costs
bake:
  file: docker-bake.hcl
${buildx === undefined ? '' : `  buildx: ${buildx}\n`}registry:
  url: http://registry.test:5000
sccache:
  url: http://cache.test:8080/sccache/
  key_prefix: rocm/{arch}
nodes:
  - name: forge
    builder: forge
    link_mbps: 100
    node_exporter: http://forge.test:9100/metrics
`;

const costs = ['build base 60', 'cache base 1000000', 'build wheel 120', 'cache wheel 2000000', ''].join(
  '\n',
);

describe('rocm-perf plan with a standalone buildx and no docker CLI', () => {
  let dir = '';
  let buildx = '';
  /** `rocm-perf plan --json` with only PATH, HOME and NO_COLOR in its environment (plus `env`). */
  const runPlan = ({ fleet = 'fleet.yaml', args = [] as string[], env = {} } = {}) =>
    runBuiltCli(['plan', '--json', '--fleet', path.join(dir, fleet), ...args], {
      cwd: dir,
      env: { PATH, HOME: dir, ...env },
    });

  beforeAll(async () => {
    // Fails (not skips) with the command that builds it when the pinned buildx is missing.
    buildx = findToolBinary('buildx', pinnedVersion('buildx', 'current'), 'buildx');
    dir = await mkdtemp(path.join(tmpdir(), 'rocm-perf-standalone-buildx-'));
    await writeFile(path.join(dir, 'docker-bake.hcl'), bakeFile);
    await writeFile(path.join(dir, 'target-costs'), costs);
    await writeFile(path.join(dir, 'fleet.yaml'), fleetFile(buildx));
    await writeFile(path.join(dir, 'docker-fleet.yaml'), fleetFile(undefined));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('PATH has no docker CLI', () => {
    expect(PATH.split(':').filter((entry) => existsSync(path.join(entry, 'docker')))).toEqual([]);
  });

  it('plans from the print of fleet.yaml bake.buildx', async () => {
    const result = await runPlan();
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const plan = PlanFileSchema.parse(JSON.parse(result.stdout));
    expect(Object.keys(plan.targets).sort()).toEqual(['base', 'wheel']);
    expect(plan.criticalPath).toEqual(['base', 'wheel']);
  });

  it('unset, the print is `docker buildx bake --print`, which this PATH cannot run', async () => {
    const result = await runPlan({ fleet: 'docker-fleet.yaml' });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')[0]).toContain(
      `\`docker buildx bake -f ${path.join(dir, 'docker-bake.hcl')} --print wheels\` exited without a code: `,
    );
    // --buildx on the command line is enough.
    const flagged = await runPlan({ fleet: 'docker-fleet.yaml', args: ['--buildx', buildx] });
    expect(flagged.exitCode).toBe(0);
    expect(Object.keys(PlanFileSchema.parse(JSON.parse(flagged.stdout)).targets)).toHaveLength(2);
  });

  it('PERF_BUILDX overrides fleet.yaml; a missing binary is one error naming the setting, the path and the fix', async () => {
    const missing = path.join(dir, 'no-such', 'buildx');
    const result = await runPlan({ env: { PERF_BUILDX: missing } });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe(
      `error: buildx binary ${missing} (PERF_BUILDX) does not exist. Fix: install a standalone buildx release there (chmod +x), or give the binary's full path (e.g. \`command -v buildx\`); or correct PERF_BUILDX, or unset it to run \`docker buildx\``,
    );
  });
});
