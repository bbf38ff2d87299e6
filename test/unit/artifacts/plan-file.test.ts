import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlan } from '../../../src/plan/index.js';
import { parsePlanFile, PLAN_VERSION, PlanFileSchema } from '../../../src/artifacts/index.js';
import { readPlanFile, writePlanFile } from '../../../src/run-dir/plan-file-io.js';
import { ArtifactError } from '../../../src/shared/errors.js';

const plan = createPlan({
  graph: { targets: ['base', 'wheel'], deps: { wheel: ['base'] } },
  costs: new Map([
    ['base', { buildSeconds: 100, cacheBytes: 1e9 }],
    ['wheel', { buildSeconds: 50, cacheBytes: 2e8 }],
  ]),
  nodes: [{ name: 'n1', builder: 'b1', linkMbps: 100, speed: 1 }],
  arch: 'gfx1201',
  createdAt: '2026-01-01T00:00:00.000Z',
});

describe('plan.json', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'rocm-perf-plan-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('carries the version and the documented fields', () => {
    expect(PlanFileSchema.parse(plan)).toEqual(plan);
    expect(plan).toMatchObject({
      version: PLAN_VERSION,
      strategy: 'heft-ls',
      arch: 'gfx1201',
      queues: { n1: ['base', 'wheel'] },
    });
    expect(plan.targets.wheel).toEqual({
      node: 'n1',
      startSeconds: 110,
      finishSeconds: 162,
      buildSeconds: 50,
      exportSeconds: 2,
      setupSeconds: 0,
      deps: ['base'],
      waitFor: ['base'],
    });
  });

  it('round-trips through writePlanFile and readPlanFile', async () => {
    const file = await writePlanFile(path.join(dir, 'run-1'), plan);
    expect(file).toBe(path.join(dir, 'run-1', 'plan.json'));
    expect(await readPlanFile(path.join(dir, 'run-1'))).toEqual(plan);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(plan);
  });

  it('refuses another version and says to re-plan', async () => {
    const file = path.join(dir, 'old.json');
    await writeFile(file, JSON.stringify({ ...plan, version: 0 }));
    const error = await readPlanFile(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ArtifactError);
    expect((error as ArtifactError).message).toBe(
      `${file}: plan version is \`0\`, this rocm-perf reads version 1`,
    );
    expect((error as ArtifactError).hint).toBe('re-run `rocm-perf plan`');
  });

  it('names the broken key of a damaged plan', () => {
    const damaged = { ...plan, queues: { n1: 'base' } };
    expect(() => parsePlanFile(damaged, 'p.json')).toThrow(/^p\.json: not a valid plan: queues\.n1: /);
  });

  it('says where a missing plan should come from', async () => {
    const error = await readPlanFile(path.join(dir, 'missing')).catch((caught: unknown) => caught);
    expect((error as ArtifactError).hint).toBe('run `rocm-perf plan --out DIR` first');
  });
});
