import type { ContractPair } from './contract-result.js';

/** Every pair, in report order (for `--only` and the docs). */
export const CONTRACT_PAIRS: readonly ContractPair[] = [
  'nginx-log-format',
  'nginx-deployed-conf',
  'registry-log',
  'target-costs',
  'makefile-shims',
  'fleet-schema',
  'prometheus-rules',
];
