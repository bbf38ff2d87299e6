import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, type TempDir } from '../helpers/daemons/index.js';
import { assertCliBuilt, repoRoot, runBuiltCli } from '../helpers/run-built-cli.js';

// `rocm-perf costs --from RUN` learns each target's memory peak from the run's data.json
// (`targets[].usage.memoryPeakBytes`, the usage figures) and writes it as a `memory` line. The run is the recorded
// warm sample with a usage figure written into its data.json here (the sample predates the usage figures).

const PEAK = 5 * 2 ** 30;
let temp: TempDir;

beforeAll(async () => {
  await assertCliBuilt();
  temp = createTempDir('costs-memory');
  const dir = path.join(temp.path, 'w');
  await cp(path.join(repoRoot, 'fixtures/runs/gfx1201-warm'), dir, { recursive: true });
  const data = JSON.parse(await readFile(path.join(dir, 'data.json'), 'utf8')) as {
    summary: { targets: { target: string; usage: unknown }[] };
  };
  const usage = { cpuSeconds: null, ioReadBytes: null, ioWriteBytes: null, pidsPeak: null, oomEvents: null };
  data.summary.targets.find((t) => t.target === 'pytorch')!.usage = {
    ...usage,
    memoryPeakBytes: PEAK,
    steps: [],
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
});
