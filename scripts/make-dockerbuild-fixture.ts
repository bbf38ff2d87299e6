// Makes the .dockerbuild fixtures of test/fixtures/dockerbuild/ with the real tools on the fleet in a box: the
// pinned buildx (test/tools/versions.txt `current`) exports build records a real BuildKit kept, as
// docker/build-push-action does after a CI build (`docker buildx history export`).
//   1. a warm run fills the caches, then one target's source moves (bumpRevisions), so the next records hold both
//      cached and rebuilt steps;
//   2. a second warm run, every target attesting `type=provenance,mode=max` (the box's `provenance` option);
//   3. on the builder that ran the most of that run's targets: `history export --finalize REF` of one record
//      (single-record.dockerbuild: the manifest is the archive's root) and of all its records of the run
//      (several-records.dockerbuild: an index of manifests, one per record, annotated with its ref).
// Needs root (network namespaces, cgroups) and the box lock:
//   npm run build && flock /tmp/rocm-perf-box.lock npx tsx scripts/make-dockerbuild-fixture.ts [--out DIR]
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { execa } from 'execa';
import { startFleet, type RunningFleet } from '../test/fleet/index.js';
import { runBoxCli } from './run-box-cli.js';

const repoRoot = path.resolve(import.meta.dirname, '..');
const outIndex = process.argv.indexOf('--out');
const out = path.resolve(
  repoRoot,
  outIndex === -1 ? 'test/fixtures/dockerbuild' : (process.argv[outIndex + 1] ?? ''),
);
const runsRoot = mkdtempSync(path.join(os.tmpdir(), 'rocm-perf-dockerbuild-'));

interface RecordedRun {
  nodes: { name: string; builder: string }[];
  targets: Record<string, { status: string; node: string; buildRef?: string }>;
}

/** The builder that ran the most targets of the run, and its records' bare ids (a buildRef is builder/node/id). */
function pickBuilderRecords(runDir: string): { builder: string; refs: { target: string; id: string }[] } {
  const run = JSON.parse(readFileSync(path.join(runDir, 'run.json'), 'utf8')) as RecordedRun;
  const byNode = new Map<string, { target: string; id: string }[]>();
  for (const [target, outcome] of Object.entries(run.targets).sort(([a], [b]) => a.localeCompare(b))) {
    const id = outcome.buildRef?.split('/').at(-1);
    if (outcome.status !== 'ok' || id === undefined) continue;
    byNode.set(outcome.node, [...(byNode.get(outcome.node) ?? []), { target, id }]);
  }
  const [node, refs] = [...byNode].sort((a, b) => b[1].length - a[1].length)[0] ?? [];
  const builder = run.nodes.find((candidate) => candidate.name === node)?.builder;
  if (builder === undefined || refs === undefined)
    throw new Error(`${runDir}: no finished target with a record`);
  return { builder, refs };
}

async function exportRecords(
  fleet: RunningFleet,
  builder: string,
  ids: string[],
  file: string,
): Promise<void> {
  const args = ['buildx', 'history', 'export', '--builder', builder, '--finalize', '-o', file, ...ids];
  await execa('docker', args, {
    env: { ...fleet.env, HOME: process.env.HOME ?? '/root' },
    extendEnv: false,
    stdout: 'inherit',
    stderr: 'inherit',
  });
  console.log(`$ docker ${args.join(' ')}\n  ${path.relative(repoRoot, file)}: ${statSync(file).size} bytes`);
}

const fleet = await startFleet({ scale: { timeScale: 1 / 300 }, provenance: true });
try {
  await runBoxCli(fleet, ['warm', '--root', runsRoot, '--sample-interval-ms', '1000']);
  fleet.bumpRevisions(['triton-wheel', 'torchvision-wheel', 'bitsandbytes-wheel']);
  const stdout = await runBoxCli(fleet, ['warm', '--root', runsRoot, '--sample-interval-ms', '1000']);
  const runDir = stdout.trim().split('\n').at(-1) ?? '';
  const { builder, refs } = pickBuilderRecords(runDir);
  console.log(`builder ${builder}: ${refs.map((ref) => `${ref.target}=${ref.id}`).join(', ')}`);
  mkdirSync(out, { recursive: true });
  const first = refs[0];
  if (first === undefined) throw new Error('no record to export');
  await exportRecords(fleet, builder, [first.id], path.join(out, 'single-record.dockerbuild'));
  if (refs.length > 1)
    await exportRecords(
      fleet,
      builder,
      refs.map((ref) => ref.id),
      path.join(out, 'several-records.dockerbuild'),
    );
  // The truth the unit tests hold the converter to: what buildx itself printed for the same builds (the harness's
  // `--progress rawjson` stream, its vertex lines only) and saved as their traces (`history trace`, Jaeger JSON).
  for (const { target } of refs) {
    const status = readFileSync(path.join(runDir, `status-${target}.jsonl`), 'utf8')
      .split('\n')
      .filter((line) => line.includes('"vertexes"'));
    writeFileSync(path.join(out, `rawjson-${target}.jsonl`), `${status.join('\n')}\n`);
    const trace = readFileSync(path.join(runDir, `trace-${target}.json`));
    writeFileSync(path.join(out, `history-trace-${target}.json.gz`), gzipSync(trace, { level: 9 }));
  }
  const version = await execa('docker', ['buildx', 'version'], {
    env: { ...fleet.env, HOME: process.env.HOME ?? '/root' },
    extendEnv: false,
  });
  console.log(`${String(version.stdout)}\nmade ${new Date().toISOString()}`);
} finally {
  await fleet.stop();
  rmSync(runsRoot, { recursive: true, force: true });
}
