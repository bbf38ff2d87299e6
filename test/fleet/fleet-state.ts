// The state file the fleet writes for the `docker` double (env ROCM_PERF_FLEET_STATE). Read back through zod.
import { readFileSync } from 'node:fs';
// zod/mini, not zod: the `docker` double bundles this file, and classic zod's 750 KB cost every call ~0.1 s of start-up.
import * as z from 'zod/mini';

export const fleetStateEnvVar = 'ROCM_PERF_FLEET_STATE';

const BuilderStateSchema = z.strictObject({
  /** Network namespace the builder's work runs in. */
  netns: z.string().check(z.minLength(1)),
  /** BuildKit node name, `<builder>0`. */
  node: z.string().check(z.minLength(1)),
  /** The node's address on the fleet bridge. */
  address: z.string().check(z.minLength(1)),
  /** Compile speed (fleet.yaml `speed`); the node's cgroup CPU quota is `cpu.baseCores` × speed. */
  speed: z._default(z.number().check(z.positive()), 1),
  /** BuildKit version of this builder's daemon: < v0.28 pushes the image, then exports the cache; ≥ v0.28 both at once. */
  buildkitVersion: z._default(z.string().check(z.regex(/^v\d+\.\d+\.\d+$/)), 'v0.27.1'),
  /** Whole seconds the builder's wall clock is off (libfaketime on its bake worker); 0 = the true time. */
  clockOffsetSeconds: z._default(z.int(), 0),
  /** The node's cgroups (v1); absent: the builds run in the host's own cgroups, without a quota. */
  cgroup: z.optional(
    z.strictObject({
      /** Directories whose cgroup.procs the bake worker joins (cpu, cpuacct, memory of the node). */
      nodeDirs: z.array(z.string()),
      /** cpu/<node>/work: the CPU quota, which the thread doing the build's CPU work joins. */
      workCpuDir: z.string(),
      /** cpuacct/<node>/compile and …/export: that thread's CPU time in build steps, and in export compression. */
      compileCpuacctDir: z.string(),
      exportCpuacctDir: z.string(),
    }),
  ),
});

const TargetStateSchema = z.strictObject({
  /** Scaled compile seconds of the target (all sccache misses, nothing layer-cached). */
  buildSeconds: z.number().check(z.nonnegative()),
  /** Bytes the image push uploads (layers + config + manifest, roughly). */
  imageBytes: z.int().check(z.nonnegative()),
  /** Bytes the registry cache export uploads. */
  cacheBytes: z.int().check(z.nonnegative()),
  /** Source revision; the layer cache only hits when the cache-from manifest was written for this revision. */
  revision: z._default(z.string().check(z.minLength(1)), '1'),
  /** Number of sccache compile units the main RUN step splits into. */
  compileUnits: z.int().check(z.positive()),
  /** Size of one sccache entry. */
  sccacheEntryBytes: z.int().check(z.positive()),
});

export const FleetStateSchema = z.strictObject({
  version: z.literal(1),
  runId: z.string().check(z.minLength(1)),
  /** Where the double keeps history records and traces. */
  stateDir: z.string().check(z.minLength(1)),
  defaultBuilder: z.string().check(z.minLength(1)),
  builders: z.record(z.string(), BuilderStateSchema),
  /** sccache WebDAV endpoint (nginx on the bridge), used unless a target passes SCCACHE_WEBDAV_ENDPOINT. */
  sccacheUrl: z.string().check(z.minLength(1)),
  /** The registry as clients see it (the Zot-logging proxy). */
  registryUrl: z.string().check(z.minLength(1)),
  /** FAKETIME_SHARED of the fleet's clock keeper (skewed-clock.ts), when a builder's clock is skewed. */
  faketimeShared: z.optional(z.string().check(z.minLength(1))),
  /** The bake definition used when no `-f` is given (the box's `--print` JSON). */
  bakeDefinitionPath: z.string().check(z.minLength(1)),
  /**
   * Per arch, the definition a bake file with `variable "<archVariable>"` evaluates to: the double picks it by that
   * environment variable, as bake reads variables from the environment. Absent: bakeDefinitionPath for every arch.
   */
  archDefinitions: z.optional(
    z.strictObject({ variable: z.string(), paths: z.record(z.string(), z.string()) }),
  ),
  targets: z.record(z.string(), TargetStateSchema),
  /** CPU cores (cgroup quota) of a speed-1 node: a compile step's CPU work is its seconds × baseCores. */
  cpuBaseCores: z._default(z.number().check(z.positive(), z.lte(1)), 0.4),
  /** The buildx version the double claims; flags newer than it are refused as that buildx would. */
  buildxVersion: z._default(z.string().check(z.regex(/^v\d+\.\d+\.\d+$/)), 'v0.23.0'),
  /**
   * How fast a speed-1 node compresses new cache layers while "preparing build cache for export" (box bytes per
   * second of CPU work at its quota): the scenario's 200 MB/s, scaled like the links.
   */
  cacheCompressBytesPerSecond: z._default(z.number().check(z.positive()), 10e6),
  /** Wait before a failed registry request's retry (BuildKit's retryhandler starts at 1 s; scaled in the box). */
  retryBackoffMs: z._default(z.number().check(z.nonnegative()), 1000),
});

export type FleetState = z.output<typeof FleetStateSchema>;
export type RawFleetState = z.input<typeof FleetStateSchema>;
export type TargetState = z.output<typeof TargetStateSchema>;

export function readFleetState(statePath: string): FleetState {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(statePath, 'utf8'));
  } catch (error) {
    throw new Error(
      `${statePath}: cannot read the fleet state (${String(error)}); start the fleet with \`npm run fleet:up\``,
      { cause: error },
    );
  }
  const parsed = FleetStateSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`${statePath}: not a fleet state file of version 1 (${issues}); restart the fleet`);
  }
  return parsed.data;
}
