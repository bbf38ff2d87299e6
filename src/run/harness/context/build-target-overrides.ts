import { listTargetLinks, parseComposable, type BakePrint } from '../../../graph/index.js';
import type { RunContext } from './load-run-context.js';
import { parseImageRef, renderImageRef, toNamespace } from '../../registry/index.js';

// The run's namespace and published inputs as explicit `--set` overrides, so they hold for any bake
// file — also a saved `--print`, whose refs were rendered for the live namespace and whose `target:`
// links would otherwise rebuild the dependency inside this builder. REGISTRY_NAME and
// PUBLISHED_INPUTS=1 are still passed in the environment for bake files that read them (PUB_* refs).

interface TargetOverridesOptions {
  print: BakePrint;
  target: string;
  liveNamespace: string;
  namespace: string;
  /** Cold: the cache export is cleared with `*.cache-to=`; do not add it back. */
  clearCacheTo: boolean;
}

function renderComposable(entry: Record<string, string>): string {
  return Object.entries(entry)
    .sort(([a], [b]) => (a === 'type' ? -1 : b === 'type' ? 1 : a.localeCompare(b)))
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
}

/** Pure: `--set` values (without the flag) for one target. @internal */
export function buildTargetOverrides({
  print,
  target,
  liveNamespace,
  namespace,
  clearCacheTo,
}: TargetOverridesOptions): string[] {
  const spec = print.target[target];
  if (!spec) return [];
  const ns = { from: liveNamespace, to: namespace };
  const move = (ref: string) => renderImageRef(toNamespace(parseImageRef(ref), ns));
  const sets: string[] = [];
  if (namespace !== liveNamespace) {
    for (const tag of spec.tags ?? []) sets.push(`${target}.tags=${move(tag)}`);
    const lists = clearCacheTo ? (['cache-from'] as const) : (['cache-from', 'cache-to'] as const);
    for (const key of lists) {
      for (const raw of spec[key] ?? []) {
        const entry = parseComposable(raw);
        sets.push(
          `${target}.${key}=${renderComposable(entry.ref ? { ...entry, ref: move(entry.ref) } : entry)}`,
        );
      }
    }
    for (const [name, value] of Object.entries(spec.contexts ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
      if (value.startsWith('docker-image://') && move(value) !== renderImageRef(parseImageRef(value)))
        sets.push(`${target}.contexts.${name}=docker-image://${move(value)}`);
    }
  }
  const links = new Set(listTargetLinks(spec));
  for (const [name, value] of Object.entries(spec.contexts ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    const linked = value.startsWith('target:') ? value.slice('target:'.length) : undefined;
    const tag = linked && links.has(linked) ? print.target[linked]?.tags?.[0] : undefined;
    if (tag) sets.push(`${target}.contexts.${name}=docker-image://${move(tag)}`);
  }
  return sets;
}

/** The overrides for one target of this run. */
export function toTargetOverrides(
  context: Pick<RunContext, 'print' | 'settings'>,
  target: string,
  clearCacheTo: boolean,
): string[] {
  const { liveNamespace, namespace } = context.settings;
  return buildTargetOverrides({ print: context.print, target, liveNamespace, namespace, clearCacheTo });
}
