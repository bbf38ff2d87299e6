import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlanFileSchema } from '../../src/artifacts/index.js';
import { repoRoot, runBuiltCli } from '../helpers/run-built-cli.js';

// `rocm-perf plan` with memory: the shipped fleet.yaml with memory_gb on every node (kiln 16 GiB, the others
// 128 GiB) and the shipped target costs with a `memory` line for pytorch. Built CLI, as a user runs it.

const GiB = 2 ** 30;
let dir = '';

function runCli(args: string[]) {
  return runBuiltCli(args);
}

async function writeFleet(pytorchGiB: number): Promise<string> {
  let node = '';
  const fleet = (await readFile(path.join(repoRoot, 'fleet.yaml'), 'utf8'))
    .split('\n')
    .flatMap((line) => {
      node = /^ +- name: (\S+)/.exec(line)?.[1] ?? node;
      const link = /^( +)link_mbps: /.exec(line);
      return link ? [line, `${link[1]}memory_gb: ${node === 'kiln' ? 16 : 128}`] : [line];
    })
    .join('\n');
  expect(fleet.match(/memory_gb/g)?.length).toBeGreaterThanOrEqual(2);
  await cp(path.join(repoRoot, '.builders'), path.join(dir, '.builders'), { recursive: true });
  const costs = path.join(dir, '.builders/target-costs');
  await writeFile(costs, `${await readFile(costs, 'utf8')}memory pytorch ${pytorchGiB * GiB}\n`);
  const file = path.join(dir, 'fleet.yaml');
  await writeFile(file, fleet);
  return file;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'rocm-perf-plan-memory-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('rocm-perf plan: memory-aware placement', () => {
  it('keeps pytorch (40 GiB) off kiln (16 GiB) and says so; --json carries the forbidden placements', async () => {
    const fleet = await writeFleet(40);
    const text = await runCli(['plan', '--fleet', fleet]);
    expect(text.stderr).not.toContain('error');
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toMatch(/^kiln — 4\.3 MB\/s, speed 1, 16 GiB memory;/m);
    expect(text.stdout).toContain('memory rule   forbade 1 placement');
    expect(text.stdout).toContain('pytorch (peak 40 GiB) not on kiln (16 GiB)');
    const json = await runCli(['plan', '--fleet', fleet, '--json']);
    const plan = PlanFileSchema.parse(JSON.parse(json.stdout));
    expect(plan.memoryForbidden).toEqual([
      { target: 'pytorch', node: 'kiln', memoryBytes: 40 * GiB, nodeMemoryBytes: 16 * GiB },
    ]);
    expect(plan.targets.pytorch!.node).not.toBe('kiln');
    expect(plan.targets.pytorch!.memoryBytes).toBe(40 * GiB);
  });

  it('a target that fits no node: exit 2 naming it, its peak and every node', async () => {
    const fleet = await writeFleet(1000);
    const result = await runCli(['plan', '--fleet', fleet]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('target pytorch: its measured memory peak 1000 GiB fits no node (');
    expect(result.stderr).toContain('kiln 16 GiB');
    expect(result.stderr).toMatch(/^error: /);
  });
});
