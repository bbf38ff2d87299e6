import { appendFileSync, copyFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPlanInputs } from '../../../../src/run/plan-inputs/load-plan-inputs.js';
import { ConfigError, UsageError } from '../../../../src/shared/errors.js';
import { writeFleetFixture } from '../../../helpers/harness-fixture.js';

// Plan inputs in the user's words: an unknown target is blamed on the flag, the variable or fleet.yaml's
// `targets:` it came from (not the bake print), with "did you mean"; a missing per-arch file names the arches that
// have one; a costs line for a target the graph lacks is a warning naming its line.

let fixture: ReturnType<typeof writeFleetFixture> | undefined;
afterEach(() => fixture?.remove());

async function loadError(options: Parameters<typeof loadPlanInputs>[0]): Promise<Error> {
  const error: unknown = await loadPlanInputs(options).catch((thrown: unknown) => thrown);
  if (!(error instanceof Error)) throw new Error('expected loadPlanInputs to fail');
  return error;
}

describe('unknown targets', () => {
  it('from --targets: a usage error naming the flag, with did you mean and the names there are', async () => {
    fixture = writeFleetFixture();
    const error = await loadError({
      fleetPath: fixture.fleetPath,
      env: {},
      flags: { targets: ['nope', 'pytroch'] },
    });
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe(
      '--targets nope,pytroch: no target or group `nope`, `pytroch` (did you mean `pytorch`?) in the bake graph',
    );
    expect((error as UsageError).hint).toBe(
      `use targets or groups of ${path.join(fixture.dir, 'bake-print.json')}: a-wheel, b-wheel, c-wheel, default, pytorch, rocm-base, wheels, or \`all\``,
    );
  });

  it('from PERF_TARGETS: names the variable', async () => {
    fixture = writeFleetFixture();
    const error = await loadError({
      fleetPath: fixture.fleetPath,
      env: { PERF_TARGETS: 'a-whel' },
      flags: { targets: ['a-whel'] },
    });
    expect(error.message).toBe(
      'PERF_TARGETS=a-whel: no target or group `a-whel` (did you mean `a-wheel`?) in the bake graph',
    );
  });

  it("from fleet.yaml's targets: a config error naming fleet.yaml", async () => {
    fixture = writeFleetFixture();
    const text = readFileSync(fixture.fleetPath, 'utf8').replace(
      'targets: [wheels, pytorch]',
      'targets: [wheels, pytroch]',
    );
    writeFileSync(fixture.fleetPath, text);
    const error = await loadError({ fleetPath: fixture.fleetPath, env: {} });
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).errors[0]).toMatch(
      new RegExp(
        `^${fixture.fleetPath}: targets: no target or group \`pytroch\` \\(did you mean \`pytorch\`\\?\\) in the bake graph\\. Fix: use targets or groups of `,
      ),
    );
  });
});

describe('per-arch files', () => {
  it('a missing file for another arch names the arches that have one', async () => {
    fixture = writeFleetFixture();
    const { dir, fleetPath } = fixture;
    renameSync(path.join(dir, 'bake-print.json'), path.join(dir, 'bake-print.gfx1201.json'));
    copyFileSync(path.join(dir, 'bake-print.gfx1201.json'), path.join(dir, 'bake-print.gfx942.json'));
    const text = readFileSync(fleetPath, 'utf8')
      .replace('bake: { print: bake-print.json }', "bake: { print: 'bake-print.{arch}.json' }")
      .replace('costs: target-costs', "costs: 'target-costs.{arch}'")
      .replace('key_prefix: rocm/gfx1201', "key_prefix: 'rocm/{arch}'");
    writeFileSync(fleetPath, text);
    for (const arch of ['gfx1201', 'gfx942', 'gfx90a'])
      copyFileSync(path.join(dir, 'target-costs'), path.join(dir, `target-costs.${arch}`));
    const error = await loadError({ fleetPath, env: { PERF_ARCH: 'gfx90a' }, flags: { arch: 'gfx90a' } });
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe(
      `PERF_ARCH=gfx90a: no bake print for gfx90a (${path.join(dir, 'bake-print.gfx90a.json')} does not exist); the arches with one are gfx1201, gfx942`,
    );
    expect((error as UsageError).hint).toMatch(/^pass --arch gfx1201, or save gfx90a's bake print as /);
  });

  it('a file named by a flag that does not exist: the flag named', async () => {
    fixture = writeFleetFixture();
    const missing = path.join(fixture.dir, 'nope');
    const error = await loadError({ fleetPath: fixture.fleetPath, env: {}, flags: { costsPath: missing } });
    expect(error.message).toBe(`--costs ${missing}: no such file`);
  });
});

describe('target-costs lines for targets the bake graph lacks', () => {
  it('are warnings naming the line, with did you mean', async () => {
    fixture = writeFleetFixture();
    appendFileSync(path.join(fixture.dir, 'target-costs'), 'build pytroch 40\n');
    const inputs = await loadPlanInputs({ fleetPath: fixture.fleetPath, env: {} });
    expect(inputs.warnings).toEqual([
      `${path.join(fixture.dir, 'target-costs')}:11: \`pytroch\` is not a target of the bake graph, so this line is not used. Did you mean \`pytorch\`? Fix: correct the name, or delete the line if the target is gone.`,
    ]);
  });
});
