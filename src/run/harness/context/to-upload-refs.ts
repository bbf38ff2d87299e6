import { parseComposable, type BakePrint } from '../../../graph/index.js';
import type { UploadRefs } from '../../../artifacts/index.js';
import { parseImageRef, renderImageRef, toNamespace } from '../../registry/index.js';

// The refs each target pushes to, as this run's bake gets them (tags, image outputs, registry cache-to, moved into
// the run's namespace as build-target-overrides.ts moves them), for run.json's `uploadRefs`: the report splits a
// trace's uploads into image and cache by them (collect/buildkit/build-trace-uploads.ts). Pure.

export interface ToUploadRefsOptions {
  print: BakePrint;
  targets: readonly string[];
  liveNamespace: string;
  namespace: string;
  /** Cold and bench clear the cache export (`--set *.cache-to=`): no cache refs. */
  clearCacheTo: boolean;
}

export function toUploadRefs({
  print,
  targets,
  liveNamespace,
  namespace,
  clearCacheTo,
}: ToUploadRefsOptions): Record<string, UploadRefs> {
  const move = (ref: string) =>
    renderImageRef(toNamespace(parseImageRef(ref), { from: liveNamespace, to: namespace }));
  const refs: Record<string, UploadRefs> = {};
  for (const target of [...targets].sort()) {
    const spec = print.target[target];
    if (spec === undefined) continue;
    const outputs = (spec.output ?? [])
      .map(parseComposable)
      .filter((entry) => entry.type === 'image' || entry.type === 'registry')
      .flatMap((entry) => (entry.name ?? '').split(','));
    const caches = clearCacheTo
      ? []
      : (spec['cache-to'] ?? [])
          .map(parseComposable)
          .filter((entry) => entry.type === 'registry')
          .map((entry) => entry.ref ?? '');
    const clean = (list: readonly string[]) => [
      ...new Set(
        list
          .map((ref) => ref.trim())
          .filter((ref) => ref !== '')
          .map(move),
      ),
    ];
    refs[target] = { image: clean([...(spec.tags ?? []), ...outputs]), cache: clean(caches) };
  }
  return refs;
}
