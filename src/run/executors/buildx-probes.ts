import { readExecutableStatus, type ExecutableStatus } from './check-buildx-binary.js';
import {
  runBuildxDu,
  runBuildxInspect,
  runBuildxVersion,
  runHistoryList,
  type CommandOutcome,
} from './buildx.js';

// The buildx calls before the measured run, bound to the run's buildx (a standalone binary's path, or undefined for
// `docker buildx`): preflight's checks and each builder's identity. The harness takes them as effects, so tests
// hand it fakes.

/** Preflight's buildx checks (part of its probes). */
export interface BuildxProbes {
  /** Whether a standalone buildx binary (fleet.yaml `bake.buildx`, PERF_BUILDX, --buildx) can be run. */
  executableStatus(file: string): Promise<ExecutableStatus>;
  /** `docker buildx version` (or the standalone buildx's) on this workstation. */
  buildxVersion(): Promise<CommandOutcome>;
  inspectBuilder(builder: string): Promise<CommandOutcome>;
  /** `docker buildx history ls` on the builder: whether its BuildKit serves the build-history API at all. */
  listHistory(builder: string): Promise<CommandOutcome>;
}

export function createBuildxProbes(buildx: string | undefined): BuildxProbes {
  return {
    executableStatus: readExecutableStatus,
    buildxVersion: () => runBuildxVersion({ buildx }),
    inspectBuilder: (builder) => runBuildxInspect(builder, { buildx }),
    listHistory: (builder) => runHistoryList(builder, { buildx }),
  };
}

/** The two buildx calls of a builder's identity (docs/cache-debug.md, "Builder identity"). */
export interface BuilderIdentityCommands {
  inspect: (builder: string) => Promise<CommandOutcome>;
  du: (builder: string) => Promise<CommandOutcome>;
}

export function createBuilderIdentityCommands(buildx: string | undefined): BuilderIdentityCommands {
  return {
    inspect: (builder) => runBuildxInspect(builder, { buildx, timeoutMs: 30_000 }),
    du: (builder) => runBuildxDu(builder, { buildx }),
  };
}
