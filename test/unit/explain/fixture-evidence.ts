// The real captures of test/fixtures/buildkit-explain/ (README there) as the explainer's parsed evidence.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseCacheDebug } from '../../../src/collect/buildkit/parse-cache-debug.js';
import { buildContentTrees } from '../../../src/explain/build-content-trees.js';
import { parseProvenance } from '../../../src/explain/parse-provenance.js';
import { parseStatusVertices } from '../../../src/explain/parse-status-vertices.js';
import type { WhyEvidence } from '../../../src/explain/build-run-why.js';

const FIXTURES = path.join(import.meta.dirname, '../../fixtures/buildkit-explain');
export const read = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');

/** One capture step as a run: lib and app on node `n1`, app depending on lib. */
export function loadStep(
  step: string,
  options: { provenance?: 'max' | 'min' | 'none'; cacheDebug?: boolean; node?: string } = {},
): WhyEvidence {
  const mode = options.provenance ?? 'max';
  const node = options.node ?? 'n1';
  const targets = Object.fromEntries(
    ['lib', 'app'].map((t) => {
      const meta = JSON.parse(read(`${step}-meta-${t}.json`)) as Record<string, Record<string, unknown>>;
      const raw = meta[t]!['buildx.build.provenance'] as Record<string, unknown>;
      const provenance =
        mode === 'none'
          ? undefined
          : parseProvenance(mode === 'max' ? raw : { ...raw, buildConfig: undefined, metadata: undefined });
      return [t, { status: parseStatusVertices(read(`${step}-status-${t}.jsonl`)), provenance, node }];
    }),
  );
  const content = options.cacheDebug
    ? {
        [node]: buildContentTrees(
          parseCacheDebug(read(`${step}-cache-debug.json`), `${step}-cache-debug.json`),
        ),
      }
    : {};
  return { stamp: step, targets, content, deps: { app: ['lib'], lib: [] } };
}
