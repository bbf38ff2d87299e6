import path from 'node:path';
import {
  FleetFileSchema,
  type BuildxSetting,
  type Config,
  type FleetFile,
  type LogSource,
  type ResolvedLog,
} from './schema.js';
import { formatIssues } from './format-issues.js';
import { fleetRules } from './rules.js';
import type { YamlPath } from './parse-fleet-yaml.js';

/** Values from the environment and flags; flags win over env, env over the file. */
export interface ConfigOverrides {
  arch?: string | undefined;
  targets?: string[] | undefined;
  registryName?: string | undefined;
  costsPath?: string | undefined;
  bakePrintPath?: string | undefined;
  /** A standalone buildx binary, relative paths resolved against the working directory. */
  buildx?: BuildxSetting | undefined;
  /** How the arch was chosen, for messages: `--arch gfx9999` or `PERF_ARCH=gfx9999`. */
  archFrom?: string | undefined;
}

export interface ValidateConfigOptions {
  raw: unknown;
  source: string;
  lineOf?: (path: YamlPath, key?: string) => number | undefined;
  overrides?: ConfigOverrides;
}

export interface ValidateConfigResult {
  config: Config | undefined;
  errors: string[];
  warnings: string[];
}

/**
 * Environment variables the config honours: REGISTRY_NAME and PERF_BUILDX. (PERF_ARCH and PERF_TARGETS enter once,
 * as the --arch and --targets flags' `env` in the flag table.)
 */
export function toEnvOverrides(env: Readonly<Record<string, string | undefined>>): ConfigOverrides {
  return {
    registryName: env.REGISTRY_NAME || undefined,
    buildx: toBuildxOverride(env.PERF_BUILDX, 'PERF_BUILDX'),
  };
}

/** A standalone buildx named by the environment or a flag: a path from the working directory. */
export function toBuildxOverride(value: string | undefined, setting: string): BuildxSetting | undefined {
  const trimmed = value?.trim();
  return trimmed ? { path: path.resolve(trimmed), setting } : undefined;
}

/** Merge override layers: later layers win where they set a value. */
export function mergeOverrides(...layers: ConfigOverrides[]): ConfigOverrides {
  const merged: ConfigOverrides = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer) as [keyof ConfigOverrides, never][]) {
      if (value !== undefined) merged[key] = value;
    }
  }
  return merged;
}

/** `host:port` or `[v6]:port` (already checked by the schema) → its parts. */
function toHostPort(address: string): { host: string; port: number } {
  const at = address.lastIndexOf(':');
  return { host: address.slice(0, at).replace(/^\[(.*)\]$/, '$1'), port: Number(address.slice(at + 1)) };
}

function resolveLog(fleet: FleetFile, log: LogSource | undefined): ResolvedLog | undefined {
  if (!log) return undefined;
  const ssh = log.ssh ?? fleet.nodes.find((node) => node.name === log.node)?.ssh;
  return ssh ? { ssh, path: log.path } : undefined;
}

export const ARCH_PLACEHOLDER = '{arch}';

/**
 * An arch other than fleet.yaml's own must reach every file and prefix that depends on it: a saved bake print, the
 * costs and the sccache prefix each need `{arch}` (a bake file takes the arch through its variable). Otherwise the
 * run would build and measure fleet.yaml's arch under the other's name.
 */
function findArchProblems(fleet: FleetFile, source: string, overrides: ConfigOverrides): string[] {
  const arch = overrides.arch ?? fleet.arch;
  if (arch === fleet.arch) return [];
  const templated = (value: string | undefined) => value === undefined || value.includes(ARCH_PLACEHOLDER);
  const fixed = [
    ...(overrides.costsPath === undefined && !templated(fleet.costs)
      ? [`costs: ${fleet.costs} (e.g. ${fleet.costs}.{arch})`]
      : []),
    ...(overrides.bakePrintPath === undefined && !templated(fleet.bake.print)
      ? [`bake.print: ${fleet.bake.print} (e.g. ${fleet.bake.print?.replace(fleet.arch, ARCH_PLACEHOLDER)})`]
      : []),
    ...(!templated(fleet.sccache.key_prefix)
      ? [
          `sccache.key_prefix: ${fleet.sccache.key_prefix} (e.g. ${fleet.sccache.key_prefix.replace(fleet.arch, ARCH_PLACEHOLDER)})`,
        ]
      : []),
  ];
  if (fixed.length === 0) return [];
  return [
    `${source}: ${overrides.archFrom ?? `arch ${arch}`}: this fleet.yaml has files for ${fleet.arch} only (its \`arch:\`): ${fixed.map((f) => f.split(':')[0]).join(', ')} ${fixed.length === 1 ? 'does' : 'do'} not depend on the arch, so a run would use ${fleet.arch}'s files and cache prefix under the name ${arch}. Fix: use --arch ${fleet.arch}, or template with {arch}: ${fixed.join('; ')}, and give ${arch} its own files.`,
  ];
}

function toConfig(fleet: FleetFile, source: string, overrides: ConfigOverrides): Config {
  const baseDir = source.startsWith('<') ? process.cwd() : path.dirname(source);
  const arch = overrides.arch ?? fleet.arch;
  const fill = (value: string) => value.replaceAll(ARCH_PLACEHOLDER, arch);
  const fromBase = (file: string) => path.resolve(baseDir, fill(file));
  return {
    source,
    arch,
    targets: overrides.targets ?? fleet.targets,
    costsPath: overrides.costsPath ? path.resolve(overrides.costsPath) : fromBase(fleet.costs),
    bakeFile: fleet.bake.file === undefined ? undefined : fromBase(fleet.bake.file),
    bakePrintPath: overrides.bakePrintPath
      ? path.resolve(overrides.bakePrintPath)
      : fleet.bake.print === undefined
        ? undefined
        : fromBase(fleet.bake.print),
    archVariable: fleet.bake.arch_variable,
    buildx:
      overrides.buildx ??
      (fleet.bake.buildx === undefined
        ? undefined
        : { path: fromBase(fleet.bake.buildx), setting: `bake.buildx in ${source}` }),
    registry: {
      url: fleet.registry.url.replace(/\/+$/, ''),
      name: overrides.registryName ?? fleet.registry.name,
      coldSuffix: fleet.registry.cold_suffix,
      benchSuffix: fleet.registry.bench_suffix,
      log: resolveLog(fleet, fleet.registry.log),
      logFormat: fleet.registry.log_format,
      cachePatterns: fleet.registry.cache_patterns,
    },
    sccache: {
      url: fleet.sccache.url,
      keyPrefix: fill(fleet.sccache.key_prefix),
      log: resolveLog(fleet, fleet.sccache.log),
    },
    nodes: fleet.nodes.map((node) => ({
      name: node.name,
      builder: node.builder,
      linkMbps: node.link_mbps,
      speed: node.speed,
      nodeExporterUrl: node.node_exporter,
      prometheusInstance: fleet.samples?.instances?.[node.name] ?? new URL(node.node_exporter).host,
      ssh: node.ssh,
      address: node.address ?? node.ssh?.host,
      buildkitDebug: node.buildkit_debug === undefined ? undefined : toHostPort(node.buildkit_debug),
    })),
    samples: fleet.samples && { prometheusUrl: fleet.samples.prometheus.replace(/\/+$/, '') },
    publish: fleet.publish && { ssh: fleet.publish.ssh, path: fleet.publish.path, url: fleet.publish.url },
  };
}

// Pure: schema, then cross-field rules, then overrides. Collects every problem before giving up.
export function validateConfig({
  raw,
  source,
  lineOf = () => undefined,
  overrides = {},
}: ValidateConfigOptions): ValidateConfigResult {
  const parsed = FleetFileSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    return {
      config: undefined,
      errors: formatIssues({ issues: parsed.error.issues, raw, source, lineOf, schema: FleetFileSchema }),
      warnings: [],
    };
  }
  const ctx = { fleet: parsed.data, source, lineOf, errors: [] as string[], warnings: [] as string[] };
  for (const rule of fleetRules) rule(ctx);
  ctx.errors.push(...findArchProblems(parsed.data, source, overrides));
  if (ctx.errors.length > 0) return { config: undefined, errors: ctx.errors, warnings: ctx.warnings };
  return { config: toConfig(parsed.data, source, overrides), errors: [], warnings: ctx.warnings };
}
