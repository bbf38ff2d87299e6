// The public API of run/executors/: buildx and ssh, as the harness and contracts --remote run them. The commands
// that must not load execa or ssh2 import load-lazily.ts (and plan the pure buildx-command.ts) directly: see the
// load-path leaves in .dependency-cruiser.cjs.
export { toBuildxCommand } from './buildx-command.js';
export {
  type CreateBuildxExecutorOptions,
  type SharedBakeOptions,
  createBuildxExecutor,
} from './buildx-executor.js';
export {
  type BuilderIdentityCommands,
  type BuildxProbes,
  createBuilderIdentityCommands,
  createBuildxProbes,
} from './buildx-probes.js';
export {
  type Bake,
  type FetchAttachment,
  type FindFailedBuild,
  findFailedBuildRef,
  runBake,
  runHistoryAttachment,
  runHistoryTrace,
  toHistoryId,
  toHistoryListArgs,
  toInspectArgs,
  toTraceArgs,
} from './buildx.js';
export { describeBuildxProblem } from './check-buildx-binary.js';
export { type ExecResult, type Executor, type QueueJob } from './executor.js';
export { type FetchOverSsh, type FetchOverSshResult, createFetchOverSsh } from './fetch-over-ssh.js';
export { parseBuildxDu } from './parse-buildx-du.js';
export {
  type BuilderInspect,
  type InspectNode,
  parseBuildxInspect,
  parseVersion,
  toBuildkitVersion,
} from './parse-buildx-inspect.js';
export {
  type ConnectRemoteHost,
  type RemoteHost,
  createRemoteHostConnector,
  quoteShell,
} from './remote-host.js';
export { type RunBakePrint, runBakePrint } from './run-bake-print.js';
