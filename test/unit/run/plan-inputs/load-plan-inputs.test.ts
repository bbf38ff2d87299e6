import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FetchBakePrintOptions } from '../../../../src/run/executors/run-bake-print.js';
import { loadPlanInputs } from '../../../../src/run/plan-inputs/load-plan-inputs.js';
import { writeFleetFixture } from '../../../helpers/harness-fixture.js';

// The bake graph comes from the run side: a saved print is read, a bake file is printed by the injected executor.

let fixture: ReturnType<typeof writeFleetFixture> | undefined;
afterEach(() => fixture?.remove());

function createFakeBakePrint(text: string) {
  const calls: FetchBakePrintOptions[] = [];
  const runBakePrint = (options: FetchBakePrintOptions) => {
    calls.push(options);
    return Promise.resolve(text);
  };
  return { calls, runBakePrint };
}

function useBakeFile(dir: string): void {
  const fleetPath = path.join(dir, 'fleet.yaml');
  const text = readFileSync(fleetPath, 'utf8');
  writeFileSync(
    fleetPath,
    text.replace('bake: { print: bake-print.json }', 'bake: { file: docker-bake.hcl }'),
  );
}

describe('loadPlanInputs', () => {
  it('reads a saved bake print and never runs the executor', async () => {
    fixture = writeFleetFixture();
    const fake = createFakeBakePrint('not used');
    const inputs = await loadPlanInputs({
      fleetPath: fixture.fleetPath,
      env: {},
      runBakePrint: fake.runBakePrint,
    });
    expect(fake.calls).toEqual([]);
    expect(inputs.graph.targets).toEqual(
      expect.arrayContaining(['pytorch', 'a-wheel', 'b-wheel', 'c-wheel']),
    );
  });

  it('runs the executor with the bake file and the targets when fleet.yaml names a bake file', async () => {
    fixture = writeFleetFixture();
    useBakeFile(fixture.dir);
    const fake = createFakeBakePrint(readFileSync(path.join(fixture.dir, 'bake-print.json'), 'utf8'));
    const inputs = await loadPlanInputs({
      fleetPath: fixture.fleetPath,
      env: {},
      runBakePrint: fake.runBakePrint,
    });
    expect(fake.calls).toEqual([
      {
        bakeFile: path.join(fixture.dir, 'docker-bake.hcl'),
        targets: ['wheels', 'pytorch'],
        env: { GFX_ARCH: 'gfx1201' },
      },
    ]);
    expect(inputs.graph.targets).toHaveLength(4);
  });

  it('names the command when its output is not JSON', async () => {
    fixture = writeFleetFixture();
    useBakeFile(fixture.dir);
    const fake = createFakeBakePrint('ERROR: no such target');
    await expect(
      loadPlanInputs({ fleetPath: fixture.fleetPath, env: {}, runBakePrint: fake.runBakePrint }),
    ).rejects.toThrow(
      /^docker buildx bake -f .*docker-bake\.hcl --print wheels pytorch: 1 problem\n {2}not JSON/,
    );
  });
});
