import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runPlanCommand } from '../../../src/commands/plan.js';
import { PlanFileSchema } from '../../../src/artifacts/index.js';
import type { FetchBakePrintOptions } from '../../../src/run/executors/run-bake-print.js';
import { createProgram } from '../../../src/program.js';
import { writeFleetFixture } from '../../helpers/harness-fixture.js';

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

  it('forecasts a band once every target has 3+ runs of history, and states a thin history otherwise', async () => {
    fixture = writeFleetFixture();
    const { dir, fleetPath } = fixture;
    const costsPath = path.join(dir, 'target-costs');
    const base = readFileSync(costsPath, 'utf8');
    const names = [...base.matchAll(/^build (\S+) /gm)].map((match) => match[1]!);
    const stdout: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => stdout.push(String(chunk)) > 0);
    const program = createProgram({ plan: (values) => runPlanCommand(values) });
    await program.parseAsync(['plan', '--fleet', fleetPath], { from: 'user' });
    expect(stdout.join('')).toMatch(
      /forecast +no band yet: 4 of 4 targets have fewer than 3 runs of history \(fewest 1\)/,
    );
    const spread = names.flatMap((name) => [`build-spread ${name} 0.2 4`, `cache-spread ${name} 0.05 4`]);
    writeFileSync(costsPath, `${base}${spread.join('\n')}\n`);
    stdout.length = 0;
    await program.parseAsync(
      ['plan', '--fleet', fleetPath, '--json', '--dispatch', 'guided', '--draws', '300'],
      {
        from: 'user',
      },
    );
    const plan = PlanFileSchema.parse(JSON.parse(stdout.join('')));
    expect(plan.forecast).toMatchObject({ banded: true, historyRuns: 4, draws: 300, policy: 'guided' });
    if (!plan.forecast?.banded) throw new Error('expected a band');
    expect(plan.forecast.makespan.p10).toBeLessThan(plan.forecast.makespan.p90);
    stdout.length = 0;
    await program.parseAsync(['plan', '--fleet', fleetPath], { from: 'user' });
    expect(stdout.join('')).toMatch(
      /forecast +p10 \S+ · p50 \S+ · p90 \S+ +\(2000 draws, fixed queues; 4\+ runs of history per target\)/,
    );
    expect(stdout.join('')).toMatch(/finish p10–p90/);
  });

  it('without a band: --place-for p90 says why it did not apply, and --json carries no band figures', async () => {
    fixture = writeFleetFixture();
    const stdout: string[] = [];
    const stderr: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => stdout.push(String(chunk)) > 0);
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void stderr.push(String(line)));
    const program = createProgram({ plan: (values) => runPlanCommand(values) });
    await program.parseAsync(['plan', '--fleet', fixture.fleetPath, '--place-for', 'p90', '--json'], {
      from: 'user',
    });
    expect(stderr).toContainEqual(
      'note: --place-for p90 did not apply: it places for the forecast band, and there is none yet (4 of 4 targets have fewer than 3 runs of history, fewest 1); the plan is placed for the median costs',
    );
    const raw = JSON.parse(stdout.join('')) as { forecast: Record<string, unknown> };
    expect(raw.forecast).toMatchObject({ banded: false, draws: 0, placedFor: 'median', historyRuns: 1 });
    for (const figure of ['makespan', 'quantiles', 'targets', 'nodes'])
      expect(raw.forecast).not.toHaveProperty(figure);
    PlanFileSchema.parse(raw);
    // Placed for the median, no note.
    stderr.length = 0;
    await program.parseAsync(['plan', '--fleet', fixture.fleetPath], { from: 'user' });
    expect(stderr.filter((line) => line.includes('--place-for'))).toEqual([]);
  });
});
