import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, type TempDir } from '../helpers/daemons/index.js';
import { assertCliBuilt, repoRoot, runBuiltCli } from '../helpers/run-built-cli.js';

// `rocm-perf costs --from RUN` learns each target's memory peak from the run's data.json
// (`targets[].usage.memoryPeakBytes`, the usage figures) and writes it as a `memory` line. The run is the recorded
// warm sample with its recorded usage taken out and one usage figure written into its data.json here. The
// same data.json's node memory (MemTotal where fleet.yaml has no memory_gb) becomes a suggested memory_gb. The
// sample was recorded on the box's bake definition, not the shipped print's: --allow-other-bake.

const PEAK = 5 * 2 ** 30;
const NODE_MEMORY = 15.62 * 2 ** 30;
let temp: TempDir;

beforeAll(async () => {
  await assertCliBuilt();
  temp = createTempDir('costs-memory');
  const dir = path.join(temp.path, 'w');
  await cp(path.join(repoRoot, 'fixtures/runs/gfx1201-warm'), dir, { recursive: true });
  const data = JSON.parse(await readFile(path.join(dir, 'data.json'), 'utf8')) as {
    summary: { targets: { target: string; usage: unknown }[]; nodes: { node: string; usage: unknown }[] };
  };
  for (const entry of [...data.summary.targets, ...data.summary.nodes]) entry.usage = null;
  const usage = { cpuSeconds: null, ioReadBytes: null, ioWriteBytes: null, pidsPeak: null, oomEvents: null };
  data.summary.targets.find((t) => t.target === 'pytorch')!.usage = {
    ...usage,
    memoryPeakBytes: PEAK,
    steps: [],
  };
  // strix's MemTotal as its samples would give it (the shipped fleet.yaml sets no memory_gb).
  data.summary.nodes.find((n) => n.node === 'strix')!.usage = {
    ...usage,
    memoryPeakBytes: null,
    memoryBytes: NODE_MEMORY,
  };
  await writeFile(path.join(dir, 'data.json'), JSON.stringify(data));
});

afterAll(() => temp?.remove());

describe('rocm-perf costs --from: memory lines', () => {
  it('writes `memory pytorch <peak>` and says which targets got one', async () => {
    const result = await runBuiltCli(
      [
        'costs',
        '--from',
        'w',
        '--dry-run',
        '--allow-other-fleet',
        '--allow-other-bake',
        '--fleet',
        path.join(repoRoot, 'fleet.yaml'),
      ],
      { root: temp.path },
    );
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines.filter((line) => line.startsWith('memory '))).toEqual([`memory pytorch ${PEAK}`]);
    expect(result.stdout).toContain('memory for 1 target(s).');
  });

  it('suggests memory_gb for a node fleet.yaml leaves without one, and --write-fleet writes it', async () => {
    const fleet = path.join(temp.path, 'fleet.yaml');
    await cp(path.join(repoRoot, 'fleet.yaml'), fleet);
    await cp(path.join(repoRoot, '.builders'), path.join(temp.path, '.builders'), { recursive: true });
    const result = await runBuiltCli(
      [
        'costs',
        '--from',
        'w',
        '--allow-other-fleet',
        '--allow-other-bake',
        '--fleet',
        fleet,
        '--write-fleet',
      ],
      { root: temp.path },
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('    strix: memory_gb not set → 15.6 (MemTotal 15.6 GiB over 1 run)');
    expect(result.stdout).toMatch(/wrote .*strix memory_gb 15\.6/);
    const written = await readFile(fleet, 'utf8');
    expect(written).toMatch(/- name: strix\n(?: {4}.*\n)*? {4}memory_gb: 15\.6\n/);
  });
});
