// The step-usage readers and join on a real capture from the fleet in a box (test/fixtures/step-usage-real/README.md):
// two RUN steps told to burn X = 3 CPU s, one of them told to hold N = 256 MiB. The expected figures are those
// numbers (the work the steps were told to do), not the product's output.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSampleTable, type NodeSummary, type TargetSummary } from '../../../src/artifacts/index.js';
import { readRunFile } from '../../../src/run-dir/read-run-file.js';
import { readStepUsage } from '../../../src/collect/cgroup/read-step-usage.js';
import { buildUsage } from '../../../src/report/build-usage.js';
import { readUsageInputs } from '../../../src/run-dir/read-usage-inputs.js';
import { openRunDir } from '../../../src/run-dir/open-run-dir.js';

const dir = fileURLToPath(new URL('../../fixtures/step-usage-real', import.meta.url));
const X_CPU_SECONDS = 3;
const N_BYTES = 256 * 2 ** 20;

async function readUsage() {
  const runDir = openRunDir(dir);
  const run = await readRunFile(runDir);
  const stepUsage = await readStepUsage(path.join(dir, 'step-usage.jsonl'));
  const { usage, warnings: readWarnings } = await readUsageInputs({
    runDir,
    run,
    stepUsage,
    samples: createSampleTable(),
  });
  const targets = Object.entries(run!.targets).map(
    ([target, outcome]) => ({ target, node: outcome.node }) as TargetSummary,
  );
  const nodes = run!.nodes.map((node) => ({ node: node.name, usage: null }) as unknown as NodeSummary);
  return { stepUsage, readWarnings, ...buildUsage({ usage, targets, nodes }) };
}

describe('step usage from a real box capture', () => {
  it('reads every poll (457 lines, none rejected, no gap)', async () => {
    const { stepUsage, readWarnings } = await readUsage();
    expect(stepUsage.polls).toHaveLength(457);
    expect(stepUsage.stats.rejected).toBe(0);
    expect(stepUsage.gaps.size).toBe(0);
    expect(readWarnings).toEqual([]);
  });

  it('attributes every target’s RUN step, and the two told steps come within 5 % of X and 10 % of N', async () => {
    const { targets, nodes, warnings } = await readUsage();
    for (const target of targets) expect(target.usage?.steps, target.target).toHaveLength(1);
    const step = (name: string) => targets.find((t) => t.target === name)!.usage!.steps[0]!;
    const [baseline, held] = [step('vllm-wheel'), step('bitsandbytes-wheel')];
    for (const told of [baseline, held]) {
      expect(told.source).toBe('cgroup');
      expect(Math.abs(told.cpuSeconds! - X_CPU_SECONDS)).toBeLessThanOrEqual(0.05 * X_CPU_SECONDS);
    }
    expect(Math.abs(held.memoryPeakBytes! - baseline.memoryPeakBytes! - N_BYTES)).toBeLessThanOrEqual(
      0.1 * N_BYTES,
    );
    // kiln built bitsandbytes-wheel; fleet.yaml's memory_gb (2 GiB) reached run.json.
    expect(nodes.find((n) => n.node === 'kiln')!.usage).toMatchObject({
      memoryBytes: 2 * 1024 ** 3,
      memoryPeakBytes: held.memoryPeakBytes,
    });
    // Every container cgroup the polls saw was joined to exactly one step: no note.
    expect(warnings).toEqual([]);
  });
});
