import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { checkNginxLogFormat } from './check-nginx-log-format.js';
import { at, createContractResult, type ContractResult } from './contract-result.js';
import type { FleetFacts } from './read-fleet-facts.js';
import { UsageError } from '../shared/errors.js';

// Pair 1 shell: the shipped conf from the repo and, with --remote, the deployed conf fetched over ssh.

export interface RunNginxContractsOptions {
  confPath: string;
  repoDir: string;
  show: (absolute: string) => string;
  facts: FleetFacts;
  /** With --remote: the deployed conf's path, and the ssh agent (SSH_AUTH_SOCK) handed down. */
  remote: { deployedConfPath: string; sshAgent: string | undefined } | undefined;
}

const EMBEDDED_MODULE = 'src/collect/logs/shipped-sccache-conf.generated.ts';

function readEmbedded(repoDir: string): { path: string; text: string | undefined } | undefined {
  const file = path.join(repoDir, EMBEDDED_MODULE);
  if (!existsSync(path.join(repoDir, 'src'))) return undefined;
  return { path: EMBEDDED_MODULE, text: existsSync(file) ? readFileSync(file, 'utf8') : undefined };
}

async function checkDeployed(
  options: RunNginxContractsOptions,
  shipped: { confText: string; confPath: string },
): Promise<ContractResult> {
  const host = options.facts.cacheHost;
  if (host === undefined) {
    throw new UsageError(
      '--remote: fleet.yaml names no cache host (sccache.log.node with ssh settings, or sccache.log.ssh)',
      { hint: 'set sccache.log in fleet.yaml, or run without --remote' },
    );
  }
  const { fetchRemoteFile } = await import('./fetch-remote-file.js');
  const fetched = await fetchRemoteFile({
    host,
    path: options.remote?.deployedConfPath ?? '',
    sshAgent: options.remote?.sshAgent,
  });
  const confPath = `${fetched.label}:${fetched.path}`;
  if (fetched.text === undefined) {
    const problem = {
      message: `could not read the deployed conf: ${fetched.error}. Fix: check --deployed-conf and the ssh settings of the cache host.`,
      producer: at(confPath),
      consumer: at(shipped.confPath),
    };
    return createContractResult({
      pair: 'nginx-deployed-conf',
      title: `${confPath} (deployed) ↔ sccache log parser`,
      problems: [problem],
    });
  }
  return checkNginxLogFormat({
    confText: fetched.text,
    confPath,
    pair: 'nginx-deployed-conf',
    fleetLog: options.facts.sccacheLog,
    shipped,
  });
}

export async function runNginxContracts(options: RunNginxContractsOptions): Promise<ContractResult[]> {
  const confPath = options.show(options.confPath);
  if (!existsSync(options.confPath)) {
    const problem = {
      message: `${confPath} is missing. Fix: restore it, or pass --conf FILE.`,
      producer: at(confPath),
      consumer: at('src/collect/logs/parse-log-format.ts'),
    };
    return [
      createContractResult({
        pair: 'nginx-log-format',
        title: `${confPath} ↔ sccache log parser`,
        problems: [problem],
      }),
    ];
  }
  const confText = readFileSync(options.confPath, 'utf8');
  const results = [
    checkNginxLogFormat({
      confText,
      confPath,
      fleetLog: options.facts.sccacheLog,
      embedded: readEmbedded(options.repoDir),
    }),
  ];
  if (options.remote) results.push(await checkDeployed(options, { confText, confPath }));
  return results;
}
