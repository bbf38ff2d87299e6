import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../config/load-config.js';
import { parseTargetCosts, renderTargetCosts } from '../config/parse-target-costs.js';
import { ConfigError, UsageError } from '../shared/errors.js';
import { deriveTargetCosts } from '../run/derive-target-costs.js';
import { readRunDirFile, readRunTraces } from '../run/read-run-traces.js';
import type { CostsValues } from './flags/index.js';
import { resolveRunDir } from './resolve-run-dir.js';
import { throwFileAccessError } from '../shared/to-file-access-error.js';
import { writeFileAtomic } from '../shared/write-file-atomic.js';

// `rocm-perf costs --from RUN`: build seconds and cache bytes from a run's traces → .builders/target-costs.
export async function runCostsCommand(options: CostsValues): Promise<void> {
  const runDir = await resolveRunDir({ flag: '--from', run: options.from, root: options.root });
  const { config } = await loadConfig({ fleetPath: options.fleet, overrides: { costsPath: options.costs } });
  const costsFlag = options.costs === undefined ? undefined : '--costs';
  // No costs file yet is fine (this run writes the first); one that cannot be read is not.
  const currentText = await readFile(config.costsPath, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    return throwFileAccessError({
      path: config.costsPath,
      flag: costsFlag,
      doing: 'read the target costs',
      reading: true,
    })(error);
  });
  const current = parseTargetCosts(currentText, config.costsPath);
  if (current.errors.length > 0) throw new ConfigError(config.costsPath, current.errors);
  const run = await readRunDirFile(runDir);
  const { traces, warnings } = await readRunTraces(runDir);
  if (traces.size === 0)
    throw new UsageError(`${runDir} holds no trace-<target>.json files`, {
      hint: 'costs come from a finished run with traces',
    });
  const derived = deriveTargetCosts({ run, traces, current: current.costs });
  const header = [
    'Target costs (rocm-perf plan reads this; `rocm-perf costs --from RUN` rewrites it).',
    'build <target> <seconds>       compile cost, roughly node-independent (from a cold or bench run)',
    'warm-build <target> <seconds>  the same steps in a warm run, caches on (plan --mode warm and `warm` use it)',
    'cache <target> <bytes>         what the target transfers when it exports, from a normal (warm, pushing) run',
    `Last derived from run ${run.stamp} (${run.harness}, ${run.namespace}): build updated for ${derived.updated.build.length}, warm-build for ${derived.updated.warmBuild.length}, cache for ${derived.updated.cache.length} target(s).`,
  ];
  const text = renderTargetCosts(derived.costs, header);
  const out = options.out ? path.resolve(options.out) : config.costsPath;
  for (const line of [...warnings, ...derived.notes]) console.error(`note: ${line}`);
  if (options.dryRun) console.log(text.trimEnd());
  else {
    await writeFileAtomic(out, text).catch(
      throwFileAccessError({
        path: options.out ?? config.costsPath,
        flag: options.out === undefined ? costsFlag : '--out',
        doing: 'write the target costs',
        example: path.join(options.out ?? '.', 'target-costs'),
      }),
    );
    console.log(
      `${out}: build figures updated for ${derived.updated.build.join(', ') || 'no target'}; warm-build for ${derived.updated.warmBuild.join(', ') || 'no target'}; cache figures for ${derived.updated.cache.join(', ') || 'no target'}`,
    );
  }
}
