import { existsSync, readFileSync } from 'node:fs';
import { at, createSkippedResult, type ContractResult } from './contract-result.js';
import type { SshFacts } from './read-fleet-facts.js';

// Pair 1: the shipped (and with --remote, the deployed) nginx log_format vs the sccache log parser.

export interface RunNginxContractsOptions {
  confPath: string;
  show: (absolute: string) => string;
  remote: { deployedConfPath: string } | undefined;
  cacheHost: SshFacts | undefined;
}

export async function runNginxContracts({ confPath, show }: RunNginxContractsOptions): Promise<ContractResult[]> {
  const title = `${show(confPath)} log_format ↔ sccache log parser (src/collect/logs/)`;
  if (!existsSync(confPath)) {
    return [{ pair: 'nginx-log-format', title, ok: false, skipped: false, notes: [], problems: [{ message: `${show(confPath)} is missing. Fix: restore it.`, producer: at(show(confPath)), consumer: at('src/collect/logs/') }] }];
  }
  readFileSync(confPath, 'utf8');
  await Promise.resolve();
  return [createSkippedResult('nginx-log-format', title, 'the sccache log parser (src/collect/logs/) is not built yet')];
}
