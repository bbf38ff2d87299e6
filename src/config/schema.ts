import { z } from 'zod';

// fleet.yaml: the fleet manifest. Keys are snake_case in the file; the resolved Config is camelCase.
// Every field carries a description so it reaches rocm-perf.schema.json (editor completion).

const HttpUrl = z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' });

const Name = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
    'use letters, digits, ".", "_" or "-", starting with a letter or digit',
  );

/** `host:port` (`[v6]:port` for IPv6) as seen from the node itself: buildkitd's --debugaddr. */
const DebugAddress = z
  .string()
  .regex(
    /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(?:6553[0-5]|655[0-2]\d|65[0-4]\d{2}|6[0-4]\d{3}|[1-5]\d{4}|[1-9]\d{0,3})$/,
    'expected host:port as the node sees it, e.g. 127.0.0.1:6060',
  );

export const HostKeyCheckingSchema = z.enum(['strict', 'accept-new', 'off']);
export type HostKeyChecking = z.infer<typeof HostKeyCheckingSchema>;

const SshTargetSchema = z
  .strictObject({
    host: z.string().min(1).describe('Host name or address to ssh to.'),
    user: z.string().min(1).optional().describe('Remote user; default: the local user.'),
    port: z.number().int().min(1).max(65535).optional().describe('ssh port; default 22.'),
    identity_file: z
      .string()
      .min(1)
      .optional()
      .describe('Private key file; default: the ssh agent or ~/.ssh/id_ed25519.'),
    known_hosts: z
      .string()
      .min(1)
      .optional()
      .describe("OpenSSH known_hosts file the host's key is checked against; default ~/.ssh/known_hosts."),
    host_key_checking: HostKeyCheckingSchema.optional().describe(
      'strict (default): the host key must be in known_hosts; accept-new: record an unknown host there, refuse a changed key; off: accept any key (an impostor could read what is sent).',
    ),
  })
  .describe('How to reach a host over ssh.');

const LogSourceSchema = z
  .strictObject({
    node: Name.optional().describe('The node (from `nodes`) whose ssh settings reach the log host.'),
    ssh: SshTargetSchema.optional().describe('ssh settings of the log host, when it is not a build node.'),
    path: z.string().min(1).describe('Absolute path of the log file on that host.'),
  })
  .describe(
    'Where a service writes its log. Give `node` or `ssh`; `local: true` style access is `ssh.host: localhost`.',
  );

const NodeSchema = z
  .strictObject({
    name: Name.describe('Node name, unique in the fleet.'),
    builder: Name.describe('The buildx builder (`docker buildx --builder <name>`) that runs on this node.'),
    link_mbps: z
      .number()
      .positive()
      .describe('Upload throughput from this node to the registry/cache store, in MB/s (MB = 10^6 bytes).'),
    speed: z
      .number()
      .positive()
      .default(1)
      .describe('Relative compile speed; build seconds are divided by it. Default 1.'),
    node_exporter: HttpUrl.describe(
      'URL of the node_exporter metrics endpoint, e.g. http://forge:9100/metrics.',
    ),
    ssh: SshTargetSchema.optional().describe('ssh settings for this node (needed when it hosts a log).'),
    address: z
      .string()
      .optional()
      .describe(
        'Client address this node uses towards the store (to attribute log lines); default: the ssh host.',
      ),
    buildkit_debug: DebugAddress.optional().describe(
      "buildkitd's debug address (--debugaddr / buildkitd.toml grpc.debugAddress) as seen FROM THE NODE, e.g. 127.0.0.1:6060; reached over the node's ssh link. With buildkitd --save-cache-debug (BuildKit ≥ 0.24.0) the run saves its cache-key debug database (cache-debug-<node>.json); see docs/cache-debug.md.",
    ),
  })
  .describe('A build node.');

const RegistrySchema = z
  .strictObject({
    url: HttpUrl.describe('Registry base URL, e.g. http://registry.fleet.lan:5000.'),
    name: Name.default('rocm').describe('Namespace (REGISTRY_NAME) for tags, caches and PUB_* refs.'),
    cold_suffix: z.string().default('-coldrun').describe('Appended to `name` for cold runs.'),
    bench_suffix: z.string().default('-bench').describe('Appended to `name` for bench runs.'),
    log: LogSourceSchema.optional().describe('The registry log, sliced into each run dir.'),
    log_format: z
      .enum(['zot', 'distribution'])
      .default('zot')
      .describe('Zot session log or CNCF Distribution JSON log.'),
    cache_patterns: z
      .array(z.string().min(1))
      .default(['*/cache:*'])
      .describe(
        'Glob patterns on `<repository>:<tag>` that mark a write as a cache export rather than an image.',
      ),
  })
  .describe('The OCI registry (Zot or docker-registry).');

const SccacheSchema = z
  .strictObject({
    url: HttpUrl.describe('WebDAV root of the compiler cache, e.g. http://strix:8080/sccache/.'),
    key_prefix: z
      .string()
      .min(1)
      .describe(
        'The live key prefix (SCCACHE_WEBDAV_KEY_PREFIX), e.g. rocm/{arch}; `{arch}` is replaced by the arch.',
      ),
    log: LogSourceSchema.optional().describe(
      'The nginx access log written with .builders/nginx-sccache.conf.',
    ),
  })
  .describe('The sccache WebDAV store served by nginx.');

const BakeSchema = z
  .strictObject({
    file: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Bake file; when set, `buildx bake -f <file> --print` is run (docker buildx, or `bake.buildx`).',
      ),
    print: z
      .string()
      .min(1)
      .optional()
      .describe(
        'A saved `docker buildx bake --print` JSON, used when `file` is not set; `{arch}` is replaced by the arch.',
      ),
    arch_variable: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      .default('GFX_ARCH')
      .describe('The bake variable that takes the arch; bake gets it from the environment of this name.'),
    buildx: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Path of a standalone buildx binary (absolute, or relative to fleet.yaml), for machines without a docker CLI: every buildx call then runs `<buildx> <args>` instead of `docker buildx <args>`. Default: `docker buildx`. PERF_BUILDX and --buildx override it.',
      ),
  })
  .describe('Where the target graph comes from.');

const PublishSchema = z
  .strictObject({
    ssh: SshTargetSchema.describe('The web host to upload the site to over SFTP.'),
    path: z.string().min(1).describe('Directory on the web host that serves the site.'),
    url: HttpUrl.optional().describe('Public URL of the site, for links.'),
  })
  .describe('Where `rocm-perf publish --push` uploads the static site.');

const SamplesSchema = z
  .strictObject({
    prometheus: HttpUrl.describe(
      "Base URL of a Prometheus server that scrapes every node's node_exporter, e.g. http://prom.fleet.lan:9090. When set, the harness takes no scrapes of its own: it polls instant queries live and rewrites samples.jsonl from one query_range at finalize.",
    ),
    instances: z
      .record(Name, z.string().min(1))
      .optional()
      .describe(
        "node name → the `instance` label of its node_exporter series in Prometheus; default: the host:port of the node's `node_exporter` URL.",
      ),
  })
  .describe('Where the node samples come from; absent: the harness scrapes each node_exporter itself.');

export const FleetFileSchema = z
  .strictObject({
    $schema: z.string().optional().describe('JSON schema reference for editors.'),
    arch: z.string().min(1).default('gfx1201').describe('GPU architecture (PERF_ARCH).'),
    targets: z
      .array(Name)
      .min(1)
      .default(['wheels', 'pytorch'])
      .describe('Targets or groups to plan and build (PERF_TARGETS).'),
    costs: z
      .string()
      .min(1)
      .default('.builders/target-costs')
      .describe('Target cost file, relative to fleet.yaml; `{arch}` is replaced by the arch.'),
    bake: BakeSchema.default({ arch_variable: 'GFX_ARCH' }),
    registry: RegistrySchema,
    sccache: SccacheSchema,
    nodes: z.array(NodeSchema).min(1).describe('The build nodes.'),
    samples: SamplesSchema.optional(),
    publish: PublishSchema.optional(),
  })
  .describe('rocm-perf fleet manifest (fleet.yaml).');

export type FleetFile = z.output<typeof FleetFileSchema>;
export type SshTarget = z.output<typeof SshTargetSchema>;
export type LogSource = z.output<typeof LogSourceSchema>;

/** A node as the rest of the program sees it. */
export interface FleetNode {
  name: string;
  builder: string;
  linkMbps: number;
  speed: number;
  nodeExporterUrl: string;
  /** The `instance` label of this node's series when Prometheus is the sample source. */
  prometheusInstance: string;
  ssh: SshTarget | undefined;
  address: string | undefined;
  /** buildkitd's debug address as the node sees it (fleet.yaml `buildkit_debug`), reached over `ssh`. */
  buildkitDebug: { host: string; port: number } | undefined;
}

/** A standalone buildx binary: its absolute path, and which setting named it (for messages). */
export interface BuildxSetting {
  path: string;
  /** `bake.buildx in <fleet.yaml>`, `PERF_BUILDX` or `--buildx`. */
  setting: string;
}

export interface ResolvedLog {
  ssh: SshTarget;
  path: string;
}

/** The resolved config: fleet.yaml after defaults, env and flags, with paths absolute. */
export interface Config {
  /** Absolute path of the fleet file, or '<defaults>'. */
  source: string;
  arch: string;
  targets: string[];
  costsPath: string;
  bakeFile: string | undefined;
  bakePrintPath: string | undefined;
  /** The bake variable (and environment variable) that carries the arch, e.g. GFX_ARCH. */
  archVariable: string;
  /** A standalone buildx binary every buildx call runs; undefined: `docker buildx`. */
  buildx: BuildxSetting | undefined;
  registry: {
    url: string;
    name: string;
    coldSuffix: string;
    benchSuffix: string;
    log: ResolvedLog | undefined;
    logFormat: 'zot' | 'distribution';
    cachePatterns: string[];
  };
  sccache: { url: string; keyPrefix: string; log: ResolvedLog | undefined };
  nodes: FleetNode[];
  /** Prometheus as the sample source (fleet.yaml `samples.prometheus`); undefined: scrape node_exporter. */
  samples: { prometheusUrl: string } | undefined;
  publish: { ssh: SshTarget; path: string; url: string | undefined } | undefined;
}
