import type { FleetFile } from './schema.js';
import type { YamlPath } from './parse-fleet-yaml.js';

// Cross-field invariants of fleet.yaml, one rule per invariant. Each pushes located messages.

interface RuleContext {
  fleet: FleetFile;
  source: string;
  lineOf: (path: YamlPath, key?: string) => number | undefined;
  errors: string[];
  warnings: string[];
}

export type Rule = (ctx: RuleContext) => void;

function where(ctx: RuleContext, path: YamlPath): string {
  const line = ctx.lineOf(path);
  return `${ctx.source}${line === undefined ? '' : `:${line}`}`;
}

function findDuplicates(values: readonly string[]): Map<string, number[]> {
  const seen = new Map<string, number[]>();
  values.forEach((value, index) => seen.set(value, [...(seen.get(value) ?? []), index]));
  return new Map([...seen].filter(([, indexes]) => indexes.length > 1));
}

const uniqueNodeNames: Rule = (ctx) => {
  for (const [name, indexes] of findDuplicates(ctx.fleet.nodes.map((node) => node.name))) {
    for (const index of indexes.slice(1)) {
      ctx.errors.push(
        `${where(ctx, ['nodes', index, 'name'])}: nodes[${index}].name: duplicate node \`${name}\` (first at nodes[${indexes[0]}]). Fix: give each node its own name.`,
      );
    }
  }
};

const uniqueBuilders: Rule = (ctx) => {
  for (const [builder, indexes] of findDuplicates(ctx.fleet.nodes.map((node) => node.builder))) {
    for (const index of indexes.slice(1)) {
      ctx.errors.push(
        `${where(ctx, ['nodes', index, 'builder'])}: nodes[${index}].builder: builder \`${builder}\` is already used by nodes[${indexes[0]}]. Fix: each node needs its own buildx builder.`,
      );
    }
  }
};

function checkLog(ctx: RuleContext, path: readonly ['registry' | 'sccache', 'log']): void {
  const log = ctx.fleet[path[0]].log;
  if (!log) return;
  const key = `${path[0]}.log`;
  if ((log.node === undefined) === (log.ssh === undefined)) {
    ctx.errors.push(
      `${where(ctx, path)}: ${key}: give exactly one of \`node\` or \`ssh\`. Fix: name the build node that hosts the log, or its ssh settings.`,
    );
    return;
  }
  if (log.node === undefined) return;
  const node = ctx.fleet.nodes.find((candidate) => candidate.name === log.node);
  if (!node) {
    const names = ctx.fleet.nodes.map((candidate) => candidate.name).join(', ');
    ctx.errors.push(
      `${where(ctx, [...path, 'node'])}: ${key}.node: no node named \`${log.node}\`. Fix: use one of ${names}.`,
    );
  } else if (!node.ssh) {
    ctx.errors.push(
      `${where(ctx, [...path, 'node'])}: ${key}.node: node \`${log.node}\` has no \`ssh\` settings. Fix: add ssh to that node.`,
    );
  }
}

const logHostsResolve: Rule = (ctx) => {
  checkLog(ctx, ['registry', 'log']);
  checkLog(ctx, ['sccache', 'log']);
};

const slowLinkWarning: Rule = (ctx) => {
  const links = ctx.fleet.nodes.map((node) => node.link_mbps);
  const ratio = Math.max(...links) / Math.min(...links);
  if (ratio > 1000) {
    ctx.warnings.push(
      `${ctx.source}: uplinks span a factor of ${ratio.toFixed(0)}; check link_mbps is in MB/s, not Mbit/s.`,
    );
  }
};

const sampleInstancesNameNodes: Rule = (ctx) => {
  const names = new Set(ctx.fleet.nodes.map((node) => node.name));
  for (const name of Object.keys(ctx.fleet.samples?.instances ?? {})) {
    if (names.has(name)) continue;
    ctx.errors.push(
      `${where(ctx, ['samples', 'instances', name])}: samples.instances.${name}: no node is called \`${name}\`. Fix: use a name from \`nodes\` (${[...names].join(', ')}) or remove the entry.`,
    );
  }
};

/** buildkit_debug is reached over the node's ssh link (docs/cache-debug.md): no ssh, no way to it. */
const debugAddressNeedsSsh: Rule = (ctx) => {
  for (const [index, node] of ctx.fleet.nodes.entries()) {
    if (node.buildkit_debug === undefined || node.ssh !== undefined) continue;
    ctx.errors.push(
      `${where(ctx, ['nodes', index, 'buildkit_debug'])}: nodes[${index}].buildkit_debug: node \`${node.name}\` has no \`ssh\` settings, and its debug address ${node.buildkit_debug} is reached over the node's ssh link. Fix: add ssh to that node, or remove buildkit_debug.`,
    );
  }
};

export const fleetRules: readonly Rule[] = [
  sampleInstancesNameNodes,
  debugAddressNeedsSsh,
  uniqueNodeNames,
  uniqueBuilders,
  logHostsResolve,
  slowLinkWarning,
];
