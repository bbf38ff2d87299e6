export {
  runContracts,
  type ContractPaths,
  type ContractsReport,
  type RunContractsOptions,
} from './run-contracts.js';
export { renderContractsReport } from './render-contracts-report.js';
export type { CliCommandSpec } from './check-makefile-shims.js';
export type { ContractPair, ContractProblem, ContractResult, SourceLocation } from './contract-result.js';
export { CONTRACT_PAIRS } from './contract-pairs.js';
