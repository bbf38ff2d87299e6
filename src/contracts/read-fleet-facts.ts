import {
  ARCH_PLACEHOLDER,
  parseYamlWithLines,
  type ParsedYaml,
  type YamlPath,
  HostKeyCheckingSchema,
  type HostKeyChecking,
} from '../config/index.js';
import path from 'node:path';
import type { FleetRegistryLog } from './check-registry-log.js';

// The few fleet.yaml values the other pairs need, read leniently: an invalid fleet.yaml fails the fleet-schema
// pair, and must not stop the other pairs from being checked.

export interface SshFacts {
  host: string;
  user: string | undefined;
  port: number | undefined;
  identityFile: string | undefined;
  knownHosts: string | undefined;
  hostKeyChecking: HostKeyChecking | undefined;
}

export interface FleetFacts {
  targets: string[];
  /** Absolute paths, resolved against fleet.yaml's directory. */
  costsPath: string;
  bakePrintPath: string | undefined;
  registryLog: FleetRegistryLog;
  /** fleet.yaml `sccache.log.path` and its line: the file the sccache collector slices. */
  sccacheLog: { fleetPath: string; path: string | undefined; line: number | undefined };
  /** ssh settings of the sccache log host (the cache host), for `--remote`. */
  cacheHost: SshFacts | undefined;
}

type Raw = Record<string, unknown>;

function asRecord(value: unknown): Raw {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Raw) : {};
}

function asString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function toSsh(value: unknown): SshFacts | undefined {
  const ssh = asRecord(value);
  const host = asString(ssh.host);
  if (host === undefined) return undefined;
  return {
    host,
    user: asString(ssh.user),
    port: typeof ssh.port === 'number' ? ssh.port : undefined,
    identityFile: asString(ssh.identity_file),
    knownHosts: asString(ssh.known_hosts),
    hostKeyChecking: HostKeyCheckingSchema.safeParse(ssh.host_key_checking).data,
  };
}

function findLogHost(raw: Raw, log: Raw): SshFacts | undefined {
  const direct = toSsh(log.ssh);
  if (direct) return direct;
  const nodes = Array.isArray(raw.nodes) ? raw.nodes.map(asRecord) : [];
  return toSsh(nodes.find((node) => node.name === log.node)?.ssh);
}

// Pure: fleet.yaml text (or its parse, to parse once) → the values the contracts need, with the schema's defaults.
export function readFleetFacts(
  text: string,
  fleetPath: string,
  parsed: ParsedYaml = parseYamlWithLines(text, fleetPath),
): FleetFacts {
  const raw = asRecord(parsed.value);
  const baseDir = path.dirname(path.resolve(fleetPath));
  const registry = asRecord(raw.registry);
  const registryLog = asRecord(registry.log);
  const sccacheLog = asRecord(asRecord(raw.sccache).log);
  const lineOf = (at: YamlPath, key?: string) => parsed.lineOf(at, key);
  // Files templated with {arch} are checked for fleet.yaml's own arch.
  const arch = asString(raw.arch) ?? 'gfx1201';
  const fill = (value: string | undefined) => value?.replaceAll(ARCH_PLACEHOLDER, arch);
  const bakePrint = fill(asString(asRecord(raw.bake).print));
  return {
    targets: Array.isArray(raw.targets)
      ? raw.targets.filter((name): name is string => typeof name === 'string')
      : ['wheels', 'pytorch'],
    costsPath: path.resolve(baseDir, fill(asString(raw.costs)) ?? '.builders/target-costs'),
    bakePrintPath: bakePrint === undefined ? undefined : path.resolve(baseDir, bakePrint),
    registryLog: {
      fleetPath,
      logFormat: registry.log_format === 'distribution' ? 'distribution' : 'zot',
      logPath: asString(registryLog.path),
      logPathLine: lineOf(['registry', 'log'], 'path') ?? lineOf(['registry']),
      logFormatLine: lineOf(['registry'], 'log_format') ?? lineOf(['registry']),
    },
    sccacheLog: {
      fleetPath,
      path: asString(sccacheLog.path),
      line: lineOf(['sccache', 'log'], 'path') ?? lineOf(['sccache']),
    },
    cacheHost: findLogHost(raw, sccacheLog),
  };
}
