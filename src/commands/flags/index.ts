import { adviseCommand } from './advise-flags.js';
import { contractsCommand } from './contracts-flags.js';
import { costsCommand } from './costs-flags.js';
import { diffCommand } from './diff-flags.js';
import { exportCommand } from './export-flags.js';
import { importCommand } from './import-flags.js';
import type { CommandValues } from './flag-table.js';
import type { CliEnv } from './read-cli-env.js';
import { createHarnessCommand } from './harness-flags.js';
import { planCommand } from './plan-flags.js';
import { publishCommand } from './publish-flags.js';
import { reportCommand } from './report-flags.js';
import { serveCommand } from './serve-flags.js';

// Every subcommand's flag table, in `--help` order: data that program.ts builds the CLI from and the contracts
// command checks the Makefile shims against (so neither imports the other).

export const COMMANDS = {
  plan: planCommand,
  contracts: contractsCommand,
  report: reportCommand,
  cold: createHarnessCommand('cold'),
  warm: createHarnessCommand('warm'),
  bench: createHarnessCommand('bench'),
  costs: costsCommand,
  serve: serveCommand,
  publish: publishCommand,
  diff: diffCommand,
  advise: adviseCommand,
  export: exportCommand,
  import: importCommand,
};

export type CommandName = keyof typeof COMMANDS;

/** What each command's runner takes. */
/** Each command's runner: its parsed values, and the CLI's environment (readCliEnv) for what no flag carries. */
export type CommandRunners = {
  [N in CommandName]: (values: CommandValues<(typeof COMMANDS)[N]>, env: CliEnv) => Promise<void>;
};

export { OTHER_ENV_VARS } from './env-vars.js';

export { toLongFlag, type CommandSpec, type CommandValues, type FlagSpec } from './flag-table.js';
export type { PlanValues } from './plan-flags.js';
export type { ContractsValues } from './contracts-flags.js';
export type { HarnessValues } from './harness-flags.js';
export { toHarnessEnv } from './harness-flags.js';
export type { ReportValues } from './report-flags.js';
export type { ImportValues } from './import-flags.js';
export type { CostsValues } from './costs-flags.js';
export type { ServeValues } from './serve-flags.js';
export type { PublishValues } from './publish-flags.js';
export type { DiffValues } from './diff-flags.js';
export type { AdviseValues } from './advise-flags.js';
export type { ExportValues } from './export-flags.js';
export { toPlanInputOverrides } from './common-flags.js';
