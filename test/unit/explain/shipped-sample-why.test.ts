import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPlanFileIfPresent } from '../../../src/run-dir/plan-file-io.js';
import { explainRunDir } from '../../../src/explain/index.js';
import { buildReportModel } from '../../../src/report/build-model.js';
import { readRunInputs } from '../../../src/run-dir/index.js';
import { openRunDir } from '../../../src/run-dir/open-run-dir.js';

// The shipped warm sample (fixtures/runs/gfx1201-warm) was recorded after one known change: pytorch's source
// (src/pytorch/REVISION) moved, nothing else (scripts/make-example-run.ts, fixtures/runs/README.md). The explainer
// runs here on the sample as it lies beside gfx1201-warm-before; the truth is that change and BuildKit's own status
// streams (`status-<target>.jsonl`, read here with JSON.parse, never with src/): which Dockerfile step of each target
// was the first one not cached.

const dir = path.resolve(import.meta.dirname, '../../../fixtures/runs/gfx1201-warm');
const targets = Object.keys(
  (JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')) as { targets: Record<string, unknown> })
    .targets,
).sort();

/** A Dockerfile step's place: `[stage-0 2/4] COPY …` → 2, `[1/3] COPY …` → 1; undefined for other vertices. */
const stepNumber = (name: string) => Number(/^\[(?:[\w-]+ )?(\d+)\/\d+\] /.exec(name)?.[1] ?? NaN);

/** The status stream's first Dockerfile step (by its number) that completed without BuildKit's `cached`. */
function firstUncachedStep(target: string): string | null {
  const cached = new Map<string, boolean>();
  for (const line of readFileSync(path.join(dir, `status-${target}.jsonl`), 'utf8').split('\n')) {
    if (line === '') continue;
    const status = JSON.parse(line) as { vertexes?: { name?: string; cached?: boolean }[] };
    for (const vertex of status.vertexes ?? [])
      if (vertex.name !== undefined && !Number.isNaN(stepNumber(vertex.name)))
        cached.set(vertex.name, (cached.get(vertex.name) ?? false) || vertex.cached === true);
  }
  const missed = [...cached].filter(([, hit]) => !hit).map(([name]) => name);
  return missed.sort((a, b) => stepNumber(a) - stepNumber(b))[0] ?? null;
}

async function explainSample() {
  const runDir = openRunDir(dir);
  const inputs = await readRunInputs({ runDir, generatedAtMs: 0 });
  return explainRunDir({
    runDir,
    model: buildReportModel(inputs),
    runFile: inputs.run,
    plan: await readPlanFileIfPresent(runDir),
    nowMs: Date.now(),
  });
}

describe('the shipped warm sample explained against the run before it', () => {
  it('finds each target’s first uncached step as BuildKit’s status stream shows it, and names the known change', async () => {
    const model = await explainSample();
    expect(model.summary.why?.against).toBe('gfx1201-warm-before');
    const why = new Map(model.summary.targets.map((t) => [t.target, t.why]));
    expect([...why.keys()].sort()).toEqual(targets);
    for (const target of targets)
      expect(why.get(target)?.firstMiss?.name ?? null, target).toBe(firstUncachedStep(target));
    // The change: pytorch's REVISION, one file, at pytorch's COPY of its source.
    expect(why.get('pytorch')?.firstMiss?.name).toMatch(/ COPY src\/pytorch \/src$/);
    expect(why.get('pytorch')?.cause).toMatchObject({ kind: 'files', changed: ['REVISION'], count: 1 });
    // Nothing else changed, so no target may be blamed on an arg, an input image, an instruction or the cache.
    const kinds = new Set(targets.map((target) => why.get(target)?.cause?.kind).filter(Boolean));
    expect([...kinds].sort()).toEqual(['dependency-rebuilt', 'files', 'unknown']);
    // A wheel whose first miss is its `COPY --from=DEP` is that dependency rebuilt, and it is listed after it.
    for (const target of targets) {
      const from = / COPY --from=([\w-]+) /.exec(firstUncachedStep(target) ?? '')?.[1];
      if (from === undefined) continue;
      expect(why.get(target)?.cause, target).toEqual({ kind: 'dependency-rebuilt', targets: [from] });
      expect(why.get(from)?.rebuiltAfter, from).toContain(target);
    }
    // A wheel whose `COPY --from=pytorch` stayed cached (same file content) but whose later, unchanged `COPY src` ran,
    // on the builder that built it before: pytorch's image moved under it (its digest in the two runs' provenance
    // materials differs), and nothing else did, so it is pytorch rebuilt. Truth: the status stream, the two meta
    // files' materials and run.json's node for the target in both runs.
    const moved = (target: string) => {
      const node = (run: string) =>
        (
          JSON.parse(readFileSync(path.join(dir, '..', run, 'run.json'), 'utf8')) as {
            targets: Record<string, { node: string }>;
          }
        ).targets[target]?.node;
      // SLSA v0.2 materials of mode=max provenance: `pkg:docker/<host>/rocm/pytorch@gfx1201?…` with its sha256.
      const pytorchDigest = (run: string) => {
        const meta = JSON.parse(
          readFileSync(path.join(dir, '..', run, `meta-${target}.json`), 'utf8'),
        ) as Record<
          string,
          { 'buildx.build.provenance'?: { materials?: { uri: string; digest: { sha256: string } }[] } }
        >;
        return meta[target]?.['buildx.build.provenance']?.materials?.find((m) =>
          m.uri.includes('/rocm/pytorch@'),
        )?.digest.sha256;
      };
      return (
        node('gfx1201-warm') === node('gfx1201-warm-before') &&
        pytorchDigest('gfx1201-warm') !== undefined &&
        pytorchDigest('gfx1201-warm') !== pytorchDigest('gfx1201-warm-before')
      );
    };
    const throughImage = targets.filter(
      (t) => / COPY src\/[\w-]+ \/src$/.test(firstUncachedStep(t) ?? '') && t !== 'pytorch' && moved(t),
    );
    expect(throughImage.length).toBeGreaterThan(0);
    for (const target of throughImage)
      expect(why.get(target)?.cause, target).toEqual({ kind: 'dependency-rebuilt', targets: ['pytorch'] });
  });
});
