import type { SshTarget } from '../../../config/index.js';
import { PreflightError } from '../../../shared/errors.js';
import { findBootstrapPlan, type BootstrapPlan, type ManifestExists } from '../dispatch/index.js';
import {
  describeBuildxProblem,
  type BuildxProbes,
  parseBuildxInspect,
  toBuildkitVersion,
  toHistoryListArgs,
  toInspectArgs,
  toBuildxCommand,
} from '../../executors/index.js';
import { checkToolVersions } from './check-tool-versions.js';
import { estimateRunDir, findDiskProblem } from '../record/index.js';
import type { RunContext } from '../context/index.js';
import { errorMessage } from '../../../shared/error-message.js';

// Phase 2: everything the run needs answers, before anything starts. Every problem is listed at once.

/** BuildxProbes: the buildx version, the builders (`inspect`, `history ls`) and the standalone binary's status. */
export interface PreflightProbes extends BuildxProbes {
  /** HTTP status of a plain request; throws on connection errors. */
  fetchStatus(url: string, method: 'GET' | 'OPTIONS'): Promise<number>;
  /** `GET /v2/` with the auth dance; throws on connection errors. */
  pingRegistry(): Promise<number>;
  manifestExists: ManifestExists;
  /** Connects over ssh and reads the log's size; throws with a message on any failure. */
  checkRemoteLog(ssh: SshTarget, path: string): Promise<void>;
  /** Bytes free for this user on the file system holding `path`. */
  freeBytes(path: string): Promise<number>;
  /** Which of `instances` Prometheus has an `up` series for; throws when it does not answer. */
  prometheusInstances?(prometheusUrl: string, instances: readonly string[]): Promise<Set<string>>;
  /** instance → Prometheus' scrape interval (ms) of its active targets. */
  prometheusScrapeIntervals?(prometheusUrl: string): Promise<Map<string, number>>;
}

export interface PreflightOptions {
  /** The sampler's scrape interval: the samples' share of the disk estimate. */
  sampleIntervalMs: number;
}

/**
 * Every builder answers `buildx inspect`, and buildx and each builder's BuildKit have what the run uses. A
 * standalone buildx that cannot be run is the one problem said (every buildx call would fail the same way).
 */
async function checkBuilders(context: RunContext, probes: PreflightProbes): Promise<string[]> {
  const { buildx } = context.config;
  if (buildx !== undefined) {
    const problem = describeBuildxProblem(buildx, await probes.executableStatus(buildx.path));
    if (problem !== undefined) return [problem];
  }
  const byBuilder = new Map<string, string[]>();
  for (const node of context.config.nodes)
    byBuilder.set(node.builder, [...(byBuilder.get(node.builder) ?? []), node.name]);
  const inspected = await Promise.all(
    [...byBuilder].map(async ([builder, nodes]) => {
      const outcome = await probes.inspectBuilder(builder).catch((error: unknown) => ({
        ok: false,
        command: toBuildxCommand(buildx?.path, toInspectArgs(builder)).command,
        errorTail: errorMessage(error),
        stdout: '',
      }));
      return { builder, nodes, outcome };
    }),
  );
  const problems = inspected.flatMap(({ builder, nodes, outcome }) =>
    outcome.ok
      ? []
      : [
          `builder ${builder} (node ${nodes.join(', ')}): \`${outcome.command}\` failed: ${outcome.errorTail.trim() || 'no output'}. Fix: create or start the builder, or correct nodes[].builder in fleet.yaml`,
        ],
  );
  const version = await probes
    .buildxVersion()
    .catch((error: unknown) => ({ ok: false, stdout: '', errorTail: errorMessage(error) }));
  if (!version.ok)
    return [
      ...problems,
      `\`${toBuildxCommand(buildx?.path, ['version']).command}\` failed: ${version.errorTail.trim() || 'no output'}. Fix: ${
        buildx === undefined
          ? 'install docker with the buildx plugin, or set a standalone buildx (PERF_BUILDX or bake.buildx)'
          : `check the buildx binary ${buildx.setting} names`
      }`,
    ];
  const builders = new Map(
    inspected
      .filter(({ outcome }) => outcome.ok)
      .map(({ builder, outcome }) => [builder, parseBuildxInspect(outcome.stdout)]),
  );
  const versions = checkToolVersions({ buildxVersion: version.stdout, builders, buildx: buildx?.path });
  context.warnings.push(...versions.warnings);
  // A builder whose version cannot be read (none printed, a commit, the docker driver's engine version) may still
  // be too old: BuildKit before v0.11 prints no version in `buildx inspect` at all (real v0.10.6). Whether it
  // serves the build-history API (the traces) is asked directly.
  const unversioned = [...builders].filter(([, inspect]) =>
    inspect.nodes.some(
      (node) => node.buildkit === undefined || toBuildkitVersion(node.buildkit) === undefined,
    ),
  );
  const history = versions.problems.some((problem) => problem.startsWith('buildx '))
    ? []
    : await Promise.all(unversioned.map(([builder]) => checkHistoryApi(builder, probes, buildx?.path)));
  return [...problems, ...versions.problems, ...history.filter((problem) => problem !== undefined)];
}

/** A problem when the builder's BuildKit does not serve the build-history API (before v0.11). */
async function checkHistoryApi(
  builder: string,
  probes: PreflightProbes,
  buildx: string | undefined,
): Promise<string | undefined> {
  const outcome = await probes.listHistory(builder).catch((error: unknown) => ({
    ok: false,
    command: toBuildxCommand(buildx, toHistoryListArgs(builder)).command,
    errorTail: errorMessage(error),
  }));
  if (outcome.ok) return undefined;
  const said = outcome.errorTail.trim().split('\n').at(-1) ?? '';
  const unimplemented = /Unimplemented|unknown method ListenBuildHistory/.test(said);
  return `builder ${builder}: \`${outcome.command}\` failed: ${said || 'no output'}${unimplemented ? ' (its BuildKit has no build-history API: older than 0.11.0, so no build would leave a trace)' : ''}. Fix: recreate the builder with a newer moby/buildkit image (≥ 0.15.0)`;
}

async function checkNodeExporters(context: RunContext, probes: PreflightProbes): Promise<string[]> {
  // With Prometheus as the sample source the harness takes no scrapes; Prometheus must reach the exporters.
  if (context.config.samples !== undefined) return [];
  const results = await Promise.all(
    context.config.nodes.map(async (node) => {
      try {
        const status = await probes.fetchStatus(node.nodeExporterUrl, 'GET');
        if (status === 200) return undefined;
        return `node_exporter of ${node.name} at ${node.nodeExporterUrl} answered ${status}. Fix: check nodes[].node_exporter in fleet.yaml`;
      } catch (error) {
        return `node_exporter of ${node.name} at ${node.nodeExporterUrl} does not answer: ${errorMessage(error)}. Fix: start prometheus-node-exporter on ${node.name}, or correct nodes[].node_exporter`;
      }
    }),
  );
  return results.filter((problem): problem is string => problem !== undefined);
}

async function checkRegistry(
  context: RunContext,
  probes: PreflightProbes,
): Promise<{ ok: boolean; problems: string[] }> {
  const url = `${context.config.registry.url}/v2/`;
  try {
    const status = await probes.pingRegistry();
    if (status === 200) return { ok: true, problems: [] };
    const fix =
      status === 401
        ? 'log in (docker login) so ~/.docker/config.json holds credentials'
        : 'check registry.url in fleet.yaml';
    return { ok: false, problems: [`registry ${url} answered ${status}. Fix: ${fix}`] };
  } catch (error) {
    return {
      ok: false,
      problems: [
        `registry ${url} does not answer: ${errorMessage(error)}. Fix: start the registry, or correct registry.url in fleet.yaml`,
      ],
    };
  }
}

async function checkSccache(context: RunContext, probes: PreflightProbes): Promise<string[]> {
  const url = context.config.sccache.url;
  try {
    const status = await probes.fetchStatus(url, 'OPTIONS');
    if (status >= 200 && status < 300) return [];
    return [
      `sccache WebDAV ${url} answered OPTIONS with ${status}. Fix: enable dav_ext_methods OPTIONS (see .builders/nginx-sccache.conf), or correct sccache.url`,
    ];
  } catch (error) {
    return [
      `sccache WebDAV ${url} does not answer: ${errorMessage(error)}. Fix: start nginx with .builders/nginx-sccache.conf, or correct sccache.url`,
    ];
  }
}

async function checkLogs(context: RunContext, probes: PreflightProbes): Promise<string[]> {
  const logs = [
    { what: 'registry log', key: 'registry.log', log: context.config.registry.log },
    { what: 'sccache log', key: 'sccache.log', log: context.config.sccache.log },
  ];
  const results = await Promise.all(
    logs.map(async ({ what, key, log }) => {
      if (!log) return undefined;
      try {
        await probes.checkRemoteLog(log.ssh, log.path);
        return undefined;
      } catch (error) {
        const problem = errorMessage(error);
        return problem.includes('Fix:')
          ? `${what} ${log.path} on ${log.ssh.host}: ${problem}`
          : `${what} ${log.path} on ${log.ssh.host}: ${problem}. Fix: check ssh access and ${key} in fleet.yaml`;
      }
    }),
  );
  return results.filter((problem): problem is string => problem !== undefined);
}

/** The run dir's estimated size (from the plan) against the free space where it will be written. */
async function checkDisk(
  context: RunContext,
  probes: PreflightProbes,
  options: PreflightOptions,
): Promise<string[]> {
  const { plan } = context;
  const estimate = estimateRunDir({
    makespanSeconds: plan.makespanSeconds,
    nodes: context.config.nodes.length,
    sampleIntervalMs: options.sampleIntervalMs,
    buildSeconds: Object.values(plan.targets).map((target) => target.buildSeconds),
  });
  try {
    const freeBytes = await probes.freeBytes(context.runDir);
    const problem = findDiskProblem({
      root: context.root,
      freeBytes,
      estimate,
      makespanSeconds: plan.makespanSeconds,
    });
    return problem === undefined ? [] : [problem];
  } catch (error) {
    return [
      `cannot read the free space of ${context.root}: ${errorMessage(error)}. Fix: check the run root (--root)`,
    ];
  }
}

/**
 * With Prometheus as the sample source: it must answer (else a problem naming the URL and the fix), and a node
 * whose instance has no series is a loud warning naming the label expected (its lines will all be gaps).
 */
async function checkPrometheus(
  context: RunContext,
  probes: PreflightProbes,
  options: PreflightOptions,
): Promise<string[]> {
  const { samples, nodes } = context.config;
  if (samples === undefined || probes.prometheusInstances === undefined) return [];
  const url = samples.prometheusUrl;
  let known: Set<string>;
  try {
    known = await probes.prometheusInstances(
      url,
      nodes.map((node) => node.prometheusInstance),
    );
  } catch (error) {
    return [
      `Prometheus at ${url} (samples.prometheus) does not answer a query: ${errorMessage(error)}. Fix: start it or correct samples.prometheus in fleet.yaml, or remove \`samples\` to scrape node_exporter directly`,
    ];
  }
  for (const node of nodes) {
    if (known.has(node.prometheusInstance)) continue;
    context.warnings.push(
      `Prometheus at ${url} has no series with instance="${node.prometheusInstance}" for node ${node.name}; its samples will all be gaps. Fix: add the node's node_exporter to Prometheus' scrape config, or set samples.instances.${node.name} to the instance label it uses`,
    );
  }
  await warnOfSlowScrapes(context, probes, options);
  return [];
}

/** A sample interval shorter than Prometheus' scrape interval only repeats the last scrape: said, not refused. */
async function warnOfSlowScrapes(
  context: RunContext,
  probes: PreflightProbes,
  options: PreflightOptions,
): Promise<void> {
  const url = context.config.samples?.prometheusUrl;
  if (url === undefined || probes.prometheusScrapeIntervals === undefined) return;
  const intervals = await probes.prometheusScrapeIntervals(url).catch((error: unknown) => {
    context.warnings.push(
      `Prometheus at ${url}: its scrape intervals could not be read from /api/v1/targets (${errorMessage(error)}); a sample interval shorter than them would only repeat values`,
    );
    return new Map<string, number>();
  });
  const slow = context.config.nodes.flatMap((node) => {
    const ms = intervals.get(node.prometheusInstance);
    return ms !== undefined && ms > options.sampleIntervalMs ? [`${node.name} every ${ms / 1000} s`] : [];
  });
  if (slow.length > 0)
    context.warnings.push(
      `samples every ${options.sampleIntervalMs / 1000} s, but Prometheus at ${url} scrapes ${slow.join(', ')}: most samples will repeat the last scrape, so peaks shorter than a scrape interval are not seen. Fix: --sample-interval-ms at least the scrape interval, or a shorter scrape_interval for these targets`,
    );
}

/** Runs every check concurrently; returns what bootstrap must build, or throws PreflightError listing all problems. */
export async function runPreflight(
  context: RunContext,
  probes: PreflightProbes,
  options: PreflightOptions,
): Promise<BootstrapPlan> {
  const [builders, exporters, registry, sccache, logs, disk, prometheus] = await Promise.all([
    checkBuilders(context, probes),
    checkNodeExporters(context, probes),
    checkRegistry(context, probes),
    checkSccache(context, probes),
    checkLogs(context, probes),
    checkDisk(context, probes, options),
    checkPrometheus(context, probes, options),
  ]);
  const bootstrap: BootstrapPlan = registry.ok
    ? await findBootstrapPlan(context, probes.manifestExists)
    : { targets: [], missing: [], problems: [] };
  const problems = [
    ...builders,
    ...exporters,
    ...prometheus,
    ...registry.problems,
    ...sccache,
    ...logs,
    ...disk,
    ...bootstrap.problems,
  ];
  if (problems.length > 0)
    throw new PreflightError(problems, {
      hint: 'fix every line above and run again; nothing was built or pushed',
    });
  return bootstrap;
}
