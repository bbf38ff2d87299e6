// Resolves `bake [targets] --set … --push --no-cache` the way buildx does (buildkit.md §1): groups expand,
// `--set` overrides apply by glob, `--push` folds into outputs, `target:` contexts pull in linked targets whose
// output becomes cacheonly. Errors are buildx's wording.
import {
  parseComposable,
  type Attrs,
  type composableKeys,
  type BakeDefinition,
  type BakeTarget,
} from './bake-definition.js';

class BakeError extends Error {}

export interface ResolveBakeOptions {
  definition: BakeDefinition;
  names: readonly string[];
  overrides: readonly string[];
  push: boolean;
  noCache: boolean;
}

export interface ResolvedBake {
  groups: BakeDefinition['group'];
  /** Targets in the order to print (sorted by name), linked ones included. */
  targets: Record<string, BakeTarget>;
  /** The targets asked for (after group expansion), sorted. */
  requested: string[];
}

interface Override {
  pattern: string;
  key: string;
  subkey: string | undefined;
  value: string;
  append: boolean;
}

const mapKeys = new Set(['args', 'contexts', 'labels', 'extra-hosts']);
const listKeys: Record<string, keyof BakeTarget> = {
  tags: 'tags',
  platform: 'platforms',
  annotations: 'annotations',
  entitlements: 'entitlements',
  'no-cache-filter': 'no-cache-filter',
  ulimits: 'ulimits',
};
const composableOverrideKeys: Record<string, (typeof composableKeys)[number]> = {
  'cache-from': 'cache-from',
  'cache-to': 'cache-to',
  output: 'output',
  secrets: 'secret',
  ssh: 'ssh',
  attest: 'attest',
};
const stringKeys = new Set(['context', 'dockerfile', 'target', 'network', 'shm-size', 'call', 'description']);
const boolKeys = new Set(['no-cache', 'pull', 'push', 'load']);

function parseOverride(text: string, env: Readonly<Record<string, string | undefined>> = {}): Override {
  const eq = text.indexOf('=');
  const left = eq === -1 ? text : text.slice(0, eq);
  const append = left.endsWith('+');
  const keyPath = (append ? left.slice(0, -1) : left).split('.');
  if (keyPath.length < 2) throw new BakeError(`invalid override key ${left}, expected target.name`);
  const [pattern, key, ...rest] = keyPath as [string, string, ...string[]];
  const subkey = rest.length > 0 ? rest.join('.') : undefined;
  if (eq === -1) {
    if (key === 'args' && subkey !== undefined && env[subkey] !== undefined)
      return { pattern, key, subkey, value: env[subkey], append };
    throw new BakeError(`invalid override ${text}, expected target.name=value`);
  }
  return { pattern, key, subkey, value: text.slice(eq + 1), append };
}

/** Go `path.Match` for target names: `*`, `?`, `[...]`; `*` does not cross `/`. */
function isGlobMatch(pattern: string, name: string): boolean {
  const source = pattern
    .replace(/[.+^${}()|\\]/g, '\\$&')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]');
  return new RegExp(`^${source}$`).test(name);
}

function parseBool(key: string, value: string): boolean {
  if (['true', '1', 't', 'TRUE', 'True'].includes(value)) return true;
  if (['false', '0', 'f', 'FALSE', 'False'].includes(value)) return false;
  throw new BakeError(`invalid value ${value} for boolean key ${key}`);
}

function applyOverride(target: BakeTarget, o: Override, touched: Set<string>): void {
  const t = target as Record<string, unknown>;
  const firstPlain = !o.append && !touched.has(o.key);
  touched.add(o.key);
  if (mapKeys.has(o.key)) {
    if (o.subkey === undefined) throw new BakeError(`invalid key ${o.key}, expected ${o.key}.<name>`);
    t[o.key] = { ...(t[o.key] ?? {}), [o.subkey]: o.value };
  } else if (o.subkey !== undefined) {
    throw new BakeError(`unknown key: ${o.key}.${o.subkey}`);
  } else if (o.key in composableOverrideKeys) {
    const key = composableOverrideKeys[o.key]!;
    const previous = firstPlain ? [] : ((t[key] as Attrs[] | undefined) ?? []);
    const added = o.value === '' ? [] : [parseComposable(key, o.value)];
    t[key] = [...previous, ...added];
  } else if (o.key in listKeys) {
    const key = listKeys[o.key]!;
    const previous = firstPlain ? [] : ((t[key] as string[] | undefined) ?? []);
    t[key] = o.value === '' ? previous : [...previous, ...o.value.split(',')];
  } else if (stringKeys.has(o.key)) {
    t[o.key] = o.value;
  } else if (o.key === 'push' || o.key === 'load') {
    if (o.key === 'push') setPushOverride(target, parseBool(o.key, o.value));
    else parseBool(o.key, o.value);
  } else if (boolKeys.has(o.key)) {
    t[o.key] = parseBool(o.key, o.value);
  } else {
    throw new BakeError(`unknown key: ${o.key}`);
  }
}

/** buildx `setPushOverride`. */
function setPushOverride(target: BakeTarget, push: boolean): void {
  const outputs = target.output ?? [];
  if (!push) {
    target.output = outputs
      .filter((o) => o.type !== 'registry')
      .map((o) => (o.type === 'image' ? { ...o, push: 'false' } : o));
    return;
  }
  const next = outputs.map((o) => (o.type === 'image' ? { ...o, push: 'true' } : o));
  if (next.length === 0 || next.every((o) => o.type === 'docker')) next.push({ type: 'image', push: 'true' });
  target.output = next;
}

function expandNames(
  definition: BakeDefinition,
  names: readonly string[],
  groups: BakeDefinition['group'],
  seen = new Set<string>(),
): string[] {
  const out: string[] = [];
  for (const name of names) {
    const group = definition.group[name];
    if (group && !seen.has(name)) {
      seen.add(name);
      groups[name] = group;
      out.push(...expandNames(definition, group.targets, groups, seen));
    } else if (definition.target[name]) {
      out.push(name);
    } else if (!group) {
      throw new BakeError(`failed to find target ${name}`);
    }
  }
  return [...new Set(out)];
}

function resolveInherits(definition: BakeDefinition, name: string, stack: string[] = []): BakeTarget {
  const own = definition.target[name];
  if (!own) throw new BakeError(`failed to find target ${name}`);
  if (stack.includes(name)) throw new BakeError(`infinite loop from ${stack.at(-1)} to ${name}`);
  let merged: BakeTarget = {};
  for (const parent of own.inherits ?? [])
    merged = { ...merged, ...resolveInherits(definition, parent, [...stack, name]) };
  const { inherits: _inherits, ...rest } = structuredClone(own);
  return { ...merged, ...rest };
}

function resolveOne(
  definition: BakeDefinition,
  name: string,
  overrides: readonly Override[],
  options: { push: boolean; noCache: boolean },
): BakeTarget {
  const target = resolveInherits(definition, name);
  target.context ??= '.';
  target.dockerfile ??= 'Dockerfile';
  const touched = new Set<string>();
  for (const o of overrides) if (isGlobMatch(o.pattern, name)) applyOverride(target, o, touched);
  if (options.noCache) target['no-cache'] = true;
  if (options.push) setPushOverride(target, true);
  for (const key of ['cache-to', 'cache-from', 'output', 'tags'] as const)
    if (target[key]?.length === 0) delete target[key];
  return target;
}

function addLinks(
  definition: BakeDefinition,
  resolved: Record<string, BakeTarget>,
  resolveTarget: (name: string) => BakeTarget,
  requested: Set<string>,
): void {
  const visit = (name: string, path: string[]) => {
    for (const value of Object.values(resolved[name]?.contexts ?? {})) {
      if (!value?.startsWith('target:')) continue;
      const linked = value.slice('target:'.length);
      if (linked === name || path.includes(linked))
        throw new BakeError(`infinite loop from ${name} to ${linked}`);
      if (!definition.target[linked]) throw new BakeError(`failed to find target ${linked}`);
      if (!resolved[linked]) {
        const target = resolveTarget(linked);
        if (!requested.has(linked)) target.output = [{ type: 'cacheonly' }];
        resolved[linked] = target;
      }
      visit(linked, [...path, name]);
    }
  };
  for (const name of Object.keys(resolved)) visit(name, []);
}

export function resolveBake(options: ResolveBakeOptions): ResolvedBake {
  const overrides = options.overrides.map((text) => parseOverride(text, process.env));
  const names = options.names.length > 0 ? options.names : ['default'];
  const groups: BakeDefinition['group'] = {};
  const requested = expandNames(options.definition, names, groups);
  for (const o of overrides) {
    const all = Object.keys(options.definition.target);
    if (!all.some((name) => isGlobMatch(o.pattern, name)))
      throw new BakeError(`could not find any target matching '${o.pattern}'`);
  }
  const resolveTarget = (name: string) => resolveOne(options.definition, name, overrides, options);
  const resolved: Record<string, BakeTarget> = {};
  for (const name of requested) resolved[name] = resolveTarget(name);
  addLinks(options.definition, resolved, resolveTarget, new Set(requested));
  if (options.names.length > 0 && !options.names.includes('default'))
    groups.default = { targets: [...options.names].sort() };
  const sorted = Object.fromEntries(
    Object.keys(resolved)
      .sort()
      .map((name) => [name, resolved[name]!]),
  );
  return { groups, targets: sorted, requested: [...requested].sort() };
}
