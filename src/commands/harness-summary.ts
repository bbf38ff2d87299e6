import path from 'node:path';
import { z } from 'zod';
import type { HarnessResult } from '../run/harness/index.js';
import { formatServeRunUrl } from '../shared/format-serve-url.js';
import {
  appendStepSummary,
  buildRunSummary,
  renderSummaryMd,
  renderSummaryText,
  type RunSummary,
} from '../summary/index.js';
import { serveCommand } from './flags/serve-flags.js';
import type { CliEnv } from './flags/read-cli-env.js';

// The end-of-run summary of cold, warm and bench (docs/summary.md), resolved at the edge: where `rocm-perf serve`
// would show the run (PERF_BIND and PERF_PORT with serve's own defaults, through serve's flag table), and the job
// summary file GitHub names in GITHUB_STEP_SUMMARY. The summary itself is built and rendered by src/summary/.

/** A word the shell takes as it is, else single-quoted. */
const shellWord = (word: string): string =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;

/** The run's page on serve as `rocm-perf serve` would be started here: PERF_BIND, PERF_PORT, serve's defaults. */
function resolveServeUrl(env: CliEnv, stamp: string): string {
  const { bind, port } = serveCommand.flags;
  const rawBind = env[bind.env] ?? bind.default;
  const rawPort = env[port.env] ?? port.default;
  const parsedBind = bind.value(z).safeParse(rawBind);
  const parsedPort = port.value(z).safeParse(rawPort);
  if (!parsedBind.success) return `unknown: ${bind.env}=${rawBind} is not an address serve takes`;
  if (!parsedPort.success) return `unknown: ${port.env}=${rawPort} is not ${port.expected}`;
  return formatServeRunUrl(parsedBind.data, parsedPort.data, stamp);
}

/** `root`: absolute, as `--root` was resolved by the flag table. */
export function buildHarnessSummary(result: HarnessResult, env: CliEnv, root: string): RunSummary {
  const { run, model, runDir } = result;
  return buildRunSummary({
    model,
    run: {
      stamp: path.basename(runDir),
      harness: run.harness,
      status: run.status,
      exitCode: run.exitCode ?? result.exitCode,
      warnings: run.warnings,
    },
    runDir,
    serve: {
      url: resolveServeUrl(env, path.basename(runDir)),
      command: `rocm-perf serve --root ${shellWord(root)}`,
    },
    joinPath: (dir, name) => path.join(dir, name),
  });
}

/**
 * Prints the summary (stdout, or stderr when stdout carries --json) and appends its markdown to GITHUB_STEP_SUMMARY
 * when that is set; a failed append is a warning on stderr, never a failed run.
 */
export async function writeHarnessSummary(
  summary: RunSummary,
  { env, json }: { env: CliEnv; json: boolean },
): Promise<void> {
  const text = renderSummaryText(summary);
  if (json) process.stderr.write(text);
  else process.stdout.write(text);
  const file = env.GITHUB_STEP_SUMMARY;
  if (file === undefined) return;
  for (const line of await appendStepSummary(file, renderSummaryMd(summary))) console.error(line);
}
