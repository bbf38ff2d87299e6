import { listTargetLinks, type BakePrint } from '../../../graph/index.js';
import { parseImageRef, renderImageRef, toNamespace, type ImageRef } from '../../registry/index.js';

// Pure: which images the run's targets build FROM, and which bake target produces each one.
// Inputs are `docker-image://` contexts in the registry's namespace, and `target:` links to
// targets outside the run (with PUBLISHED_INPUTS=1 they resolve from the target's published tag).

export interface ImageInput {
  ref: ImageRef;
  /** The bake target that builds it, when the print has one. */
  producer: string | undefined;
  /** Targets of the run (or of the bootstrap) that need it. */
  neededBy: string[];
}

export interface FindImageInputsOptions {
  print: BakePrint;
  /** Targets whose inputs are wanted. */
  targets: readonly string[];
  /** Every target built in the run: links to these are in-run, not inputs. */
  inRun: ReadonlySet<string>;
  liveNamespace: string;
  namespace: string;
}

function publishedRef(print: BakePrint, target: string): string | undefined {
  return print.target[target]?.tags?.[0];
}

/** The target whose (namespaced) tags include `ref`, else one named like the repository's last part. */
function findProducer(print: BakePrint, ref: ImageRef, ns: { from: string; to: string }): string | undefined {
  const wanted = renderImageRef(ref);
  const names = Object.keys(print.target).sort();
  const byTag = names.find((name) =>
    (print.target[name]?.tags ?? []).some(
      (tag) => renderImageRef(toNamespace(parseImageRef(tag), ns)) === wanted,
    ),
  );
  return byTag ?? names.find((name) => name === ref.repository.split('/').at(-1));
}

export function findImageInputs(options: FindImageInputsOptions): {
  inputs: ImageInput[];
  problems: string[];
} {
  const { print, targets, inRun, liveNamespace, namespace } = options;
  const ns = { from: liveNamespace, to: namespace };
  const inputs = new Map<string, ImageInput>();
  const problems: string[] = [];
  const add = (ref: ImageRef, producer: string | undefined, target: string) => {
    const key = renderImageRef(ref);
    const entry = inputs.get(key) ?? { ref, producer, neededBy: [] };
    if (!entry.neededBy.includes(target)) entry.neededBy.push(target);
    inputs.set(key, entry);
  };
  for (const target of [...targets].sort()) {
    const spec = print.target[target];
    for (const value of Object.values(spec?.contexts ?? {})) {
      if (!value.startsWith('docker-image://')) continue;
      const ref = parseImageRef(value);
      if (ref.repository.split('/')[0] !== liveNamespace) continue;
      const namespaced = toNamespace(ref, ns);
      add(namespaced, findProducer(print, namespaced, ns), target);
    }
    for (const link of spec ? listTargetLinks(spec) : []) {
      if (inRun.has(link)) continue;
      const tag = publishedRef(print, link);
      if (tag !== undefined) add(toNamespace(parseImageRef(tag), ns), link, target);
      else
        problems.push(
          `${target} links to ${link}, which is outside the run and has no tags to resolve it from. Fix: add ${link} to the run's targets.`,
        );
    }
  }
  const sorted = [...inputs.values()].sort((a, b) =>
    renderImageRef(a.ref).localeCompare(renderImageRef(b.ref)),
  );
  return { inputs: sorted, problems };
}
