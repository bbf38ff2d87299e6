// `docker buildx bake`: flags → definition → resolve, then hand the build to a worker inside the builder's
// network namespace.
import { spawn } from 'node:child_process';
import { toSkewedClockEnv } from '../skewed-clock.js';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readFleetState, type FleetState } from '../fleet-state.js';
import { toBakeDefinition, type BakeDefinition } from './bake-definition.js';
import type { BakeJob } from './bake-job.js';
import { CliError, type CommandIo } from './cli-error.js';
import {
  buildxPersistentFlags,
  getArray,
  getBool,
  getString,
  parseFlags,
  type FlagSpec,
} from './parse-flags.js';
import { progressModes, type ProgressMode } from './progress.js';
import { resolveBake } from './resolve-bake.js';

const bakeFlags: readonly FlagSpec[] = [
  ...buildxPersistentFlags,
  { name: 'file', kind: 'stringArray', short: 'f' },
  { name: 'set', kind: 'stringArray' },
  { name: 'no-cache', kind: 'bool' },
  { name: 'push', kind: 'bool' },
  { name: 'print', kind: 'bool', unimplemented: true },
  { name: 'metadata-file', kind: 'string' },
  { name: 'progress', kind: 'string' },
  { name: 'pull', kind: 'bool' },
  { name: 'provenance', kind: 'string' },
  { name: 'sbom', kind: 'string' },
  { name: 'allow', kind: 'stringArray' },
  { name: 'load', kind: 'bool', unimplemented: true },
  { name: 'list', kind: 'string' },
  { name: 'call', kind: 'string', unimplemented: true },
  { name: 'check', kind: 'bool', unimplemented: true },
  { name: 'var', kind: 'stringArray', unimplemented: true },
];

/** The box's definition for the arch in the environment (the bake variable), else its default. */
function toArchDefinition(state: FleetState): string {
  const byArch = state.archDefinitions;
  const arch = byArch === undefined ? undefined : process.env[byArch.variable];
  if (byArch === undefined || arch === undefined || arch === '') return state.bakeDefinitionPath;
  const file = byArch.paths[arch];
  if (file === undefined)
    throw new CliError(
      `the box's bake definition has no ${byArch.variable}=${arch} (it knows ${Object.keys(byArch.paths).join(', ')})`,
    );
  return file;
}

function readDefinition(files: readonly string[], state: FleetState, cwd: string): BakeDefinition {
  const paths =
    files.length > 0
      ? files.map((f) => path.resolve(cwd, f))
      : [
          existsSync(path.join(cwd, 'docker-bake.json'))
            ? path.join(cwd, 'docker-bake.json')
            : toArchDefinition(state),
        ];
  const merged: BakeDefinition = { group: {}, target: {} };
  for (const file of paths) {
    if (!file.endsWith('.json'))
      throw new CliError(
        `${file}: the rocm-perf fleet double reads JSON bake files only (the \`bake --print\` form)`,
      );
    if (!existsSync(file))
      throw new CliError(`failed to read ${file}: open ${file}: no such file or directory`);
    const definition = toBakeDefinition(JSON.parse(readFileSync(file, 'utf8')), file);
    Object.assign(merged.group, definition.group);
    for (const [name, target] of Object.entries(definition.target))
      merged.target[name] = { ...merged.target[name], ...target };
  }
  return merged;
}

/**
 * bake hands `--progress` straight to BuildKit's progressui.NewDisplay (auto, tty, plain, rawjson from v0.12,
 * quiet). `none` is only mapped to quiet by `buildx build` (v0.29+), never by bake (docker/buildx master).
 */
function toProgress(value: string | undefined): ProgressMode {
  const mode = value ?? 'auto';
  const known = (progressModes as readonly string[]).includes(mode);
  if (!known) throw new CliError(`invalid progress mode ${mode}`);
  return mode as ProgressMode;
}

export function resolveBuilder(flag: string | undefined, state: FleetState): string {
  const name = flag ?? process.env.BUILDX_BUILDER ?? state.defaultBuilder;
  if (!state.builders[name]) throw new CliError(`no builder "${name}" found`);
  return name;
}

/**
 * Where the worker finds the `tasks` files of its node's work cgroups (`ip netns exec` remounts /sys, hiding
 * /sys/fs/cgroup): fd 3 = cpu/…/work (the quota), 4 = cpuacct/…/compile, 5 = cpuacct/…/export.
 */
export const workTaskFds = { quota: 3, compile: 4, export: 5 } as const;

function runWorker(state: FleetState, builder: string, jobPath: string): Promise<number> {
  const { netns, cgroup, clockOffsetSeconds } = state.builders[builder]!;
  const entry = process.argv[1]!;
  const args = [
    'netns',
    'exec',
    netns,
    process.execPath,
    ...process.execArgv,
    entry,
    '__fleet-bake-worker',
    jobPath,
  ];
  const taskFds = cgroup
    ? [cgroup.workCpuDir, cgroup.compileCpuacctDir, cgroup.exportCpuacctDir].map((dir) =>
        openSync(path.join(dir, 'tasks'), 'w'),
      )
    : [];
  const child = spawn('ip', args, {
    stdio: ['ignore', 'inherit', 'inherit', ...taskFds],
    env: { ...process.env, ...toSkewedClockEnv(clockOffsetSeconds, state.faketimeShared) },
  });
  for (const fd of taskFds) closeSync(fd);
  // `ip netns exec` keeps its pid when it execs node: moving it now puts the whole build (its threads, and
  // anything it starts) in the builder's cgroups, where the node's counters see it.
  for (const dir of cgroup?.nodeDirs ?? []) writeFileSync(path.join(dir, 'cgroup.procs'), String(child.pid));
  // A cancelled client: pass the signal on to the worker, which records its running builds as canceled, and wait.
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  process.once('SIGTERM', forward('SIGTERM'));
  process.once('SIGINT', forward('SIGINT'));
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 130 : 1)));
    child.once('error', () => resolve(1));
  });
}

export async function runBakeCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const flags = parseFlags(argv, bakeFlags);
  if (getBool(flags, 'help')) return (io.out('Usage:  docker buildx bake [OPTIONS] [TARGET...]\n'), 0);
  if (getString(flags, 'list') !== undefined)
    throw new CliError('--list is a real buildx flag the rocm-perf fleet double does not implement');
  const state = readFleetState(io.statePath());
  const progress = toProgress(getString(flags, 'progress'));
  const resolved = resolveBake({
    definition: readDefinition(getArray(flags, 'file'), state, process.cwd()),
    names: flags.args,
    overrides: getArray(flags, 'set'),
    push: getBool(flags, 'push'),
    noCache: getBool(flags, 'no-cache'),
  });
  const builder = resolveBuilder(getString(flags, 'builder'), state);
  const metadataFile = getString(flags, 'metadata-file');
  const job: BakeJob = {
    version: 1,
    statePath: io.statePath(),
    builder,
    targets: resolved.targets,
    requested: resolved.requested,
    progress,
    ...(metadataFile === undefined ? {} : { metadataFile: path.resolve(metadataFile) }),
    command: ['docker', 'buildx', 'bake', ...argv].join(' '),
  };
  const jobsDir = path.join(state.stateDir, 'jobs');
  mkdirSync(jobsDir, { recursive: true });
  const jobPath = path.join(jobsDir, `${Date.now()}-${process.pid}.json`);
  writeFileSync(jobPath, JSON.stringify(job));
  return runWorker(state, builder, jobPath);
}
