export { runContracts, type ContractPaths } from './run-contracts.js';
export { renderContractsReport } from './render-contracts-report.js';
export type { CliCommandSpec } from './check-makefile-shims.js';
export type { ShimCall } from './run-makefile-shims.js';
export type { SourceLocation } from './contract-result.js';
