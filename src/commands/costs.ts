import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  loadConfig,
  parseTargetCosts,
  renderTargetCosts,
  type ParsedTargetCosts,
  toEditedFleetYaml,
  type Config,
  nameInputOrigins,
} from '../config/index.js';
import { ConfigError, isRocmPerfError, UsageError } from '../shared/errors.js';
import { loadBakePrint } from '../run/plan-inputs/index.js';
import type { BakePrint } from '../graph/index.js';
import {
  learnFleet,
  renderFleetLearning,
  toFleetEdits,
  toUploadObservations,
  deriveTargetCosts,
  type DerivedCosts,
} from '../plan/index.js';
import {
  buildCostsHeader,
  readCostRuns,
  refuseOtherBakeRuns,
  refuseOtherFleetRuns,
  refuseUnpoolableRuns,
  type CostRun,
} from '../costs/index.js';
import type { CostsValues } from './flags/index.js';
import { resolveRunDir } from './resolve-run-dir.js';
import { throwFileAccessError } from '../shared/to-file-access-error.js';
import { writeFileAtomic } from '../shared/write-file-atomic.js';

// `rocm-perf costs --from RUN...`: build seconds and cache bytes from the runs' traces, pooled (median and spread)
// → .builders/target-costs; and the fleet model measured from the same runs against fleet.yaml (--write-fleet).
export async function runCostsCommand(options: CostsValues): Promise<void> {
  const dirs: string[] = [];
  for (const run of options.from) dirs.push(await resolveRunDir({ flag: '--from', run, root: options.root }));
  const { config } = await loadConfig({ fleetPath: options.fleet, overrides: { costsPath: options.costs } });
  const current = await readCurrentCosts(config, options);
  const { runs, warnings } = await readCostRuns(dirs, {
    allowPartial: options.allowPartial,
    nowMs: Date.now(),
  });
  refuseUnpoolableRuns(runs);
  warnings.push(...refuseOtherFleetRuns(runs, config, options.allowOtherFleet));
  const bake = await loadCurrentBakePrint(options, runs);
  warnings.push(...bake.notes, ...refuseOtherBakeRuns(runs, bake.current, options.allowOtherBake));
  const derived = deriveTargetCosts({ runs, current: current.costs });
  const costs = new Map(
    [...derived.costs].map(([target, cost]) => [target, { ...cost, ...derived.spreads.get(target) }]),
  );
  const text = renderTargetCosts(costs, buildCostsHeader(runs, derived));
  const out = options.out ? path.resolve(options.out) : config.costsPath;
  for (const line of [...warnings, ...derived.notes]) console.error(`note: ${line}`);
  if (options.dryRun) console.log(text.trimEnd());
  else {
    await writeFileAtomic(out, text).catch(
      throwFileAccessError({
        path: options.out ?? config.costsPath,
        flag: options.out === undefined ? costsFlagOf(options) : '--out',
        doing: 'write the target costs',
        example: path.join(options.out ?? '.', 'target-costs'),
      }),
    );
    console.log(
      `${out}: build figures updated for ${derived.updated.build.join(', ') || 'no target'}; warm-build for ${derived.updated.warmBuild.join(', ') || 'no target'}; cache figures for ${derived.updated.cache.join(', ') || 'no target'}; image figures for ${derived.updated.image.join(', ') || 'no target'}; memory peaks for ${derived.updated.memory.join(', ') || 'no target'}`,
    );
  }
  await learnFleetFromRuns({ options, config, runs, derived });
}

/**
 * What fleet.yaml's bake print gives now, for the runs' arch, to compare with the digests the runs recorded; nothing
 * when no run recorded one. A print that cannot be had is refused like another definition (--allow-other-bake: a note).
 */
async function loadCurrentBakePrint(
  options: CostsValues,
  runs: readonly CostRun[],
): Promise<{ current: { print: BakePrint; source: string } | undefined; notes: string[] }> {
  const arch = runs.find(({ run }) => run.bake !== undefined)?.run.arch;
  if (arch === undefined) return { current: undefined, notes: [] };
  try {
    const { config } = await loadConfig({ fleetPath: options.fleet, overrides: { arch } });
    return { current: await loadBakePrint({ config, origins: nameInputOrigins({}, {}) }), notes: [] };
  } catch (error) {
    if (!isRocmPerfError(error)) throw error;
    const why = `cannot compare the runs' bake definition with the current one: ${error.message}`;
    if (options.allowOtherBake) return { current: undefined, notes: [`--allow-other-bake: ${why}`] };
    throw new UsageError(`--from: ${why}`, {
      cause: error,
      hint: `${error.hint ?? 'correct the bake print or bake file fleet.yaml names'}; or --allow-other-bake to learn without comparing`,
    });
  }
}

const costsFlagOf = (options: CostsValues) => (options.costs === undefined ? undefined : '--costs');

async function readCurrentCosts(config: Config, options: CostsValues): Promise<ParsedTargetCosts> {
  // No costs file yet is fine (this run writes the first); one that cannot be read is not.
  const currentText = await readFile(config.costsPath, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    return throwFileAccessError({
      path: config.costsPath,
      flag: costsFlagOf(options),
      doing: 'read the target costs',
      reading: true,
    })(error);
  });
  const current = parseTargetCosts(currentText, config.costsPath);
  if (current.errors.length > 0) throw new ConfigError(config.costsPath, current.errors);
  return current;
}

/** The fleet model measured from the same runs: printed always, written into fleet.yaml with --write-fleet. */
async function learnFleetFromRuns({
  options,
  config,
  runs,
  derived,
}: {
  options: CostsValues;
  config: Config;
  runs: readonly CostRun[];
  derived: DerivedCosts;
}): Promise<void> {
  const observed = runs.map(({ run, traces }) => toUploadObservations({ run, traces: traces.values() }));
  for (const note of observed.flatMap((o) => o.notes)) console.error(`note: ${note}`);
  const learning = learnFleet({
    uploads: observed.flatMap((o) => o.uploads),
    builds: derived.builds,
    nodes: config.nodes,
    memory: runs.flatMap(({ nodeMemory }) =>
      [...(nodeMemory ?? [])].map(([node, bytes]) => ({ node, bytes })),
    ),
  });
  // Under --dry-run stdout is the costs file; the fleet findings go beside the notes.
  const print = options.dryRun ? console.error : console.log;
  for (const line of renderFleetLearning(learning, config.source)) print(line);
  const edits = toFleetEdits(learning);
  if (!options.writeFleet) {
    if (edits.length > 0)
      print(`  Add --write-fleet to write ${edits.length === 1 ? 'it' : 'them'} into ${config.source}.`);
    return;
  }
  if (options.dryRun || edits.length === 0) {
    print(`  ${config.source} not written: ${options.dryRun ? '--dry-run' : 'nothing to change'}.`);
    return;
  }
  const text = await readFile(config.source, 'utf8');
  await writeFileAtomic(config.source, toEditedFleetYaml(text, edits, config.source)).catch(
    throwFileAccessError({ path: config.source, flag: '--fleet', doing: 'write the fleet manifest' }),
  );
  print(`${config.source}: wrote ${edits.map((e) => `${e.node} ${e.key} ${e.value}`).join(', ')}`);
}
