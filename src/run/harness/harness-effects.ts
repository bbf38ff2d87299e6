import { openRunDir } from '../../run-dir/index.js';
import { createPrometheusSampler, fetchMetricsText } from '../../collect/index.js';
import { systemClock } from '../../shared/clock.js';
import {
  runBakePrint,
  type RunBakePrint,
  findFailedBuildRef,
  type Bake,
  type FindFailedBuild,
  runBake,
  runHistoryAttachment,
  runHistoryTrace,
  createBuilderIdentityCommands,
  createRemoteHostConnector,
  createFetchOverSsh,
  type FetchOverSsh,
} from '../executors/index.js';
import { sampleOnThread, createStepUsageSampler } from '../sampling/index.js';
import { createPreflightProbes, type PreflightProbes, readBuilderIdentities } from './preflight/index.js';
import type { MeasureEffects } from './measure/index.js';
import type { RunContext } from './context/index.js';
import type { BuilderIdentity, DataFile } from '../../artifacts/index.js';
import type { FleetNode } from '../../config/index.js';

// What the harness does to the world, as values: the real ones below, fakes in tests.

/** MeasureEffects: the clock, traces, ssh links, samplers and /metrics the measured run's instruments use. */
export interface HarnessEffects extends MeasureEffects {
  /** `buildx bake --print` (docker's or the standalone binary), when fleet.yaml names a bake file, not a saved print. */
  runBakePrint: RunBakePrint;
  bake: Bake;
  /** The build record of a failed bake, for its trace (a failed bake writes no metadata file). */
  findFailedBuild: FindFailedBuild;
  /** A build record's attachment (`history inspect attachment`): the provenance a metadata file lacks. */
  fetchAttachment: typeof runHistoryAttachment;
  /** One HTTP GET to an address as a node sees it, over its ssh link (buildkitd's debug address). */
  fetchOverSsh: FetchOverSsh;
  /** Each node's builder before the measured run (`buildx inspect`, `buildx du --verbose`). */
  readBuilderIdentities: (
    nodes: readonly FleetNode[],
    buildx: string | undefined,
  ) => Promise<Map<string, BuilderIdentity>>;
  createProbes: (context: RunContext) => Promise<PreflightProbes>;
  /** Writes data.json, report.md and index.html; returns the model written (undefined: none, e.g. a fake). */
  writeReport: (runDir: string) => Promise<DataFile | undefined>;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/** The report (with the advisor's section) is loaded on first use, so a run that never gets there does not load it. */
const writeRunReport = async (runDir: string): Promise<DataFile> => {
  const [explain, advise] = await Promise.all([
    import('../../explain/index.js'),
    import('../../advise/index.js'),
  ]);
  const handle = openRunDir(runDir);
  const { model } = await explain.writeRunReport({
    runDir: handle,
    addParts: (explained) => advise.addAdvice({ runDir: handle, model: explained }),
  });
  return model;
};

/**
 * The real effects, with what the command resolved from the environment: the ssh agent (SSH_AUTH_SOCK) and the
 * docker config dir (DOCKER_CONFIG, else ~/.docker). The core never reads process.env.
 */
export const createDefaultEffects = ({
  sshAgent,
  dockerConfigDir,
}: {
  sshAgent: string | undefined;
  dockerConfigDir: string;
}): HarnessEffects => {
  const connect = createRemoteHostConnector(sshAgent);
  return {
    clock: systemClock,
    runBakePrint,
    bake: runBake,
    findFailedBuild: findFailedBuildRef,
    fetchTrace: runHistoryTrace,
    fetchAttachment: runHistoryAttachment,
    connect,
    fetchOverSsh: createFetchOverSsh(sshAgent),
    readBuilderIdentities: (nodes, buildx) =>
      readBuilderIdentities(nodes, createBuilderIdentityCommands(buildx)),
    createProbes: (context) => createPreflightProbes(context.config, dockerConfigDir, connect),
    createSampler: sampleOnThread,
    createPrometheusSampler,
    createStepUsageSampler,
    fetchMetrics: fetchMetricsText,
    writeReport: writeRunReport,
    stderr: process.stderr,
  };
};
