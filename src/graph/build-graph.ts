import type { BakePrint } from './bake-print-schema.js';
import { listTargetLinks } from './bake-print-schema.js';

export interface TargetGraph {
  /** The targets to run, sorted by name. */
  targets: string[];
  /** In-run dependencies (both ends in `targets`), sorted. */
  deps: Record<string, string[]>;
  /** `target:` links to targets outside the run: resolved from the registry. */
  externalDeps: Record<string, string[]>;
}

export interface BuildGraphResult {
  graph: TargetGraph | undefined;
  errors: string[];
}

export interface BuildGraphOptions {
  print: BakePrint;
  /** Target or group names; `all` means every target in the print. */
  requested: readonly string[];
  source: string;
}

function expandNames(print: BakePrint, requested: readonly string[], unknown: string[]): Set<string> {
  const out = new Set<string>();
  const visit = (name: string, trail: string[]) => {
    if (name === 'all') {
      for (const target of Object.keys(print.target)) out.add(target);
      return;
    }
    const group = print.group?.[name];
    if (group && !print.target[name]) {
      if (trail.includes(name)) return;
      for (const member of group.targets) visit(member, [...trail, name]);
    } else if (print.target[name]) out.add(name);
    else unknown.push(trail.length > 0 ? `${name} (in group ${trail.at(-1)})` : name);
  };
  for (const name of requested) visit(name, []);
  return out;
}

/** Requested names that are neither a target nor a group of the print, nor `all` (members of groups not checked). */
export function findUnknownNames(print: BakePrint, requested: readonly string[]): string[] {
  return requested.filter((name) => name !== 'all' && !print.target[name] && !print.group?.[name]);
}

/** What `--targets` takes: every group and target of the print, sorted. */
export function listRequestableNames(print: BakePrint): string[] {
  return [...new Set([...Object.keys(print.group ?? {}), ...Object.keys(print.target)])].sort();
}

/** Cycles among `targets`, each as a list of names, found by DFS colouring. @internal */
export function findCycles(
  targets: readonly string[],
  deps: Readonly<Record<string, readonly string[]>>,
): string[][] {
  const state = new Map<string, 'visiting' | 'done'>();
  const cycles: string[][] = [];
  const stack: string[] = [];
  const visit = (name: string) => {
    state.set(name, 'visiting');
    stack.push(name);
    for (const dep of deps[name] ?? []) {
      if (state.get(dep) === 'visiting') cycles.push([...stack.slice(stack.indexOf(dep)), dep]);
      else if (!state.has(dep)) visit(dep);
    }
    stack.pop();
    state.set(name, 'done');
  };
  for (const name of [...targets].sort()) if (!state.has(name)) visit(name);
  return cycles;
}

// Pure: requested names → the run's targets with their in-run dependencies. Lists every offender.
export function buildGraph({ print, requested, source }: BuildGraphOptions): BuildGraphResult {
  const errors: string[] = [];
  const unknown: string[] = [];
  const targets = expandNames(print, requested, unknown);
  if (unknown.length > 0) {
    const known = [...Object.keys(print.group ?? {}), ...Object.keys(print.target)].sort().join(', ');
    errors.push(`${source}: unknown target(s): ${unknown.join(', ')}. Fix: use one of ${known}, or \`all\`.`);
  }
  const allLinks: Record<string, string[]> = {};
  for (const name of Object.keys(print.target)) {
    allLinks[name] = listTargetLinks(print.target[name] ?? {});
    for (const link of allLinks[name]) {
      if (!print.target[link])
        errors.push(
          `${source}: target ${name}: context links to unknown target \`${link}\`. Fix: define it or remove the link.`,
        );
    }
  }
  const sorted = [...targets].sort();
  const deps: Record<string, string[]> = {};
  const externalDeps: Record<string, string[]> = {};
  for (const name of sorted) {
    const links = allLinks[name] ?? [];
    deps[name] = links.filter((link) => targets.has(link));
    externalDeps[name] = links.filter((link) => !targets.has(link));
  }
  for (const cycle of findCycles(Object.keys(print.target), allLinks)) {
    errors.push(`${source}: dependency cycle: ${cycle.join(' -> ')}. Fix: break one of these target: links.`);
  }
  return errors.length > 0
    ? { graph: undefined, errors }
    : { graph: { targets: sorted, deps, externalDeps }, errors };
}

/** Targets in dependency order (Kahn), ties by name: deterministic. */
export function orderTopologically(graph: TargetGraph): string[] {
  const indegree = new Map(graph.targets.map((name) => [name, graph.deps[name]?.length ?? 0]));
  const order: string[] = [];
  const ready = graph.targets.filter((name) => indegree.get(name) === 0);
  while (ready.length > 0) {
    ready.sort();
    const name = ready.shift() as string;
    order.push(name);
    for (const other of graph.targets) {
      if (graph.deps[other]?.includes(name)) {
        const left = (indegree.get(other) ?? 0) - 1;
        indegree.set(other, left);
        if (left === 0) ready.push(other);
      }
    }
  }
  return order;
}
