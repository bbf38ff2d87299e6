import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runPlanCommand } from '../../../src/commands/plan.js';
import { PlanFileSchema } from '../../../src/artifacts/index.js';
import type { FetchBakePrintOptions } from '../../../src/run/executors/bake-print.js';
import { createProgram } from '../../../src/program.js';
import { writeFleetFixture } from '../run/harness-fixture.js';

// `rocm-perf plan` in-process, on a fleet.yaml that names a bake file: the bake graph comes from the injected
// executor, so no docker runs.

let fixture: ReturnType<typeof writeFleetFixture> | undefined;
afterEach(() => {
  fixture?.remove();
  vi.restoreAllMocks();
});

describe('runPlanCommand', () => {
  it('plans from the print the injected runBakePrint returns for the bake file', async () => {
    fixture = writeFleetFixture();
    const { dir, fleetPath } = fixture;
    writeFileSync(
      fleetPath,
      readFileSync(fleetPath, 'utf8').replace('print: bake-print.json', 'file: bake.hcl'),
    );
    const calls: FetchBakePrintOptions[] = [];
    const runBakePrint = (options: FetchBakePrintOptions) => {
      calls.push(options);
      return Promise.resolve(readFileSync(path.join(dir, 'bake-print.json'), 'utf8'));
    };
    const stdout: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => stdout.push(String(chunk)) > 0);
    const program = createProgram({ plan: (values) => runPlanCommand(values, { runBakePrint }) });
    await program.parseAsync(['plan', '--fleet', fleetPath, '--json'], { from: 'user' });
    expect(calls).toEqual([
      { bakeFile: path.join(dir, 'bake.hcl'), targets: ['wheels', 'pytorch'], env: { GFX_ARCH: 'gfx1201' } },
    ]);
    const plan = PlanFileSchema.parse(JSON.parse(stdout.join('')));
    expect(Object.keys(plan.targets).sort()).toEqual(['a-wheel', 'b-wheel', 'c-wheel', 'pytorch']);
  });
});
