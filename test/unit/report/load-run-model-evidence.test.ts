import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRunModel } from '../../../src/report/load-run-model.js';
import { openRunDir } from '../../../src/run-dir/open-run-dir.js';

// A run dir recorded with the evidence on (fixtures/runs/gfx1201-warm: the real box run after one known change) has a step-usage.jsonl its data.json
// was made with. loadRunModel (serve, diff, advise) must take that data.json as it is: a model rebuilt from the run
// files has no `why` (the report alone explains), so a size check that missed step-usage.jsonl ("absent now")
// silently dropped every explanation.
const repoRoot = path.resolve(import.meta.dirname, '../../..');

describe('loadRunModel on a run recorded with the evidence', () => {
  it('uses the stored data.json, why and usage included, when step-usage.jsonl is as it was', async () => {
    const loaded = await loadRunModel({
      runDir: openRunDir(path.join(repoRoot, 'fixtures/runs/gfx1201-warm')),
      nowMs: Date.now(),
    });
    expect(loaded.notes).toEqual([]);
    expect(loaded.source).toBe('data.json');
    expect(loaded.model.summary.why?.against).toBe('gfx1201-warm-before');
    expect(loaded.model.summary.targets.find((t) => t.target === 'pytorch')?.why?.cause?.kind).toBe('files');
  });
});
