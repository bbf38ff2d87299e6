import { statfs } from 'node:fs/promises';
import { request } from '../../../shared/request.js';
import { fetchKnownInstances, fetchScrapeIntervals } from '../../../collect/index.js';
import type { Config } from '../../../config/index.js';
import { createBuildxProbes, type ConnectRemoteHost } from '../../executors/index.js';
import { buildLogHostCheckCommand } from '../../cache-logs/index.js';
import type { PreflightProbes } from './preflight.js';
import { fetchManifestExists, fetchRegistryStatus, loadDockerCredentials } from '../../registry/index.js';

// The real probes behind preflight: buildx (executors/buildx-probes.ts), undici, the OCI registry client and ssh2.

async function fetchStatus(url: string, method: 'GET' | 'OPTIONS'): Promise<number> {
  const response = await request(url, { method, headersTimeout: 10_000, bodyTimeout: 10_000 });
  await response.body.dump();
  return response.statusCode;
}

export async function createPreflightProbes(
  config: Config,
  /** Where the registry credentials are (DOCKER_CONFIG, else ~/.docker; resolved by the command). */
  dockerConfigDir: string,
  /** The ssh connector (with the CLI's ssh agent) for the remote-log checks. */
  connect: ConnectRemoteHost,
): Promise<PreflightProbes> {
  const baseUrl = config.registry.url;
  const credentials = await loadDockerCredentials(new URL(baseUrl).host, dockerConfigDir);
  return {
    ...createBuildxProbes(config.buildx?.path),
    fetchStatus,
    prometheusInstances: (prometheusUrl, instances) =>
      fetchKnownInstances({ prometheusUrl, instances, signal: AbortSignal.timeout(10_000) }),
    prometheusScrapeIntervals: (prometheusUrl) =>
      fetchScrapeIntervals({ prometheusUrl, signal: AbortSignal.timeout(10_000) }),
    pingRegistry: () => fetchRegistryStatus('/v2/', { baseUrl, credentials, method: 'GET' }),
    manifestExists: (repository, reference) =>
      fetchManifestExists(repository, reference, { baseUrl, credentials }),
    async freeBytes(path) {
      const stats = await statfs(path);
      return stats.bavail * stats.bsize;
    },
    async checkRemoteLog(ssh, path) {
      const host = await connect(ssh);
      try {
        const result = await host.run(buildLogHostCheckCommand(path), { timeoutMs: 15_000 });
        const detail = result.stderr.trim() || `exit ${result.exitCode}`;
        if (result.exitCode === 3 && detail.startsWith('missing on the log host'))
          throw new Error(`${detail}. Fix: install GNU coreutils on ${host.label}`);
        if (result.exitCode !== 0) throw new Error(`cannot read it: ${detail}`);
      } finally {
        host.close();
      }
    },
  };
}
