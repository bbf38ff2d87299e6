// The evidence a run saves for "why it missed" (issue 37; docs/cache-debug.md), on the fleet in a box: real
// buildkitd v0.32.2 on three nodes, started with --save-cache-debug and a debug address inside each node's namespace
// (reachable only over the node's ssh link), and the oldest supported BuildKit (v0.17.3) on bench. A cold run
// (buildx v0.36.1), then every target's COPY'd source file changed, then a warm run with the oldest buildx
// (v0.23.0): bench is then the oldest pair. Checked from outside the product: the saved databases and metadata
// files are decoded here (base64, JSON) and compared with what the test itself changed and what fleet.yaml says.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pinnedVersion } from '../fleet/real/tools.js';
import { readRun, useHarnessBox } from './harness-helpers.js';

const oldestBuildx = pinnedVersion('buildx', 'oldest');
const oldestBuildkit = pinnedVersion('buildkit', 'oldest');
const currentBuildkit = pinnedVersion('buildkit', 'current');
const oldestNode = 'bench';

const { box, runHarness } = useHarnessBox({
  fleet: {
    scale: { timeScale: 1 / 300 },
    buildkitVersions: { [oldestNode]: oldestBuildkit },
  },
  rootName: 'harness-evidence',
  sampleIntervalMs: 1000,
});

interface RawRecord {
  digest: string;
  type: string;
  data?: { type: number; data?: string }[];
}

/** One node's saved database, decoded here: digest → type and its kept frames as text. */
function readDatabase(runDir: string, node: string): Map<string, { type: string; frames: string[] }> {
  const records = JSON.parse(
    readFileSync(path.join(runDir, `cache-debug-${node}.json`), 'utf8'),
  ) as RawRecord[];
  return new Map(
    records.map((record) => [
      record.digest,
      {
        type: record.type,
        frames: (record.data ?? [])
          .filter((frame) => frame.type === 2)
          .map((frame) => Buffer.from(frame.data ?? '', 'base64').toString('utf8')),
      },
    ]),
  );
}

/** The exec records of `box-compile -target <target>`: their env. */
function findCompileEnvs(db: Map<string, { type: string; frames: string[] }>, target: string): string[][] {
  const envs: string[][] = [];
  for (const record of db.values()) {
    if (record.type !== 'json') continue;
    const plaintext = JSON.parse(record.frames.join('')) as {
      Type?: string;
      Exec?: { meta?: { args?: string[]; env?: string[] } };
    };
    const command = plaintext.Exec?.meta?.args?.join(' ') ?? '';
    if (plaintext.Type === 'buildkit.exec.v0' && command.includes(`box-compile -target ${target} `))
      envs.push(plaintext.Exec?.meta?.env ?? []);
  }
  return envs;
}

/** The `size` header field of every file record a `file-list` names as `REVISION`. */
function findRevisionSizes(db: Map<string, { type: string; frames: string[] }>): Set<string> {
  const sizes = new Set<string>();
  for (const record of db.values()) {
    if (record.type !== 'file-list') continue;
    for (const pair of record.frames.join('').split('\0')) {
      const at = pair.lastIndexOf('sha256:');
      if (at < 0 || pair.slice(0, at) !== 'REVISION') continue;
      const size = db.get(pair.slice(at))?.frames.find((frame) => frame.startsWith('size'));
      if (size !== undefined) sizes.add(size.slice('size'.length));
    }
  }
  return sizes;
}

interface LlbStep {
  op?: { Op?: { exec?: { meta?: { args?: string[] } } } };
}
interface Provenance {
  // SLSA v0.2 (the metadata file; BuildKit < 0.28's attachment)
  invocation?: { parameters?: { args?: Record<string, string> } };
  buildConfig?: { llbDefinition?: LlbStep[] };
  metadata?: Record<string, unknown>;
  // SLSA v1 (BuildKit ≥ 0.28's attachment, saved as provenance-<target>.json)
  buildDefinition?: {
    externalParameters?: { request?: { args?: Record<string, string> } };
    internalParameters?: { buildConfig?: { llbDefinition?: LlbStep[] } };
  };
  runDetails?: { metadata?: Record<string, unknown> };
}

/** A target's provenance as the run dir holds it, read here: build args, exec commands, BuildKit metadata. */
function readProvenance(runDir: string, target: string) {
  const attachment = path.join(runDir, `provenance-${target}.json`);
  let predicate: Provenance | undefined;
  if (existsSync(attachment)) predicate = JSON.parse(readFileSync(attachment, 'utf8')) as Provenance;
  else {
    const meta = JSON.parse(readFileSync(path.join(runDir, `meta-${target}.json`), 'utf8')) as Record<
      string,
      Record<string, unknown>
    >;
    predicate = meta[target]?.['buildx.build.provenance'] as Provenance | undefined;
  }
  const steps =
    predicate?.buildConfig?.llbDefinition ??
    predicate?.buildDefinition?.internalParameters?.buildConfig?.llbDefinition ??
    [];
  return {
    from: existsSync(attachment) ? 'attachment' : 'metadata',
    args:
      predicate?.invocation?.parameters?.args ??
      predicate?.buildDefinition?.externalParameters?.request?.args,
    execs: steps.map((step) => step.op?.Op?.exec?.meta?.args?.join(' ') ?? ''),
    buildkitMetadata:
      predicate?.metadata?.['https://mobyproject.org/buildkit@v1#metadata'] ??
      predicate?.runDetails?.metadata?.buildkit_metadata,
  };
}

describe('the evidence for "why it missed" on the fleet in a box', () => {
  it('cold, then a changed source file and a warm run: each v0.32.2 builder saves its cache-key database with both runs’ exec records and file headers; every metadata file holds mode=max provenance; the oldest pair gives provenance and a note', async () => {
    const { fleet } = box();
    const livePrefix = 'rocm/gfx1201'; // fleet.yaml sccache.key_prefix `rocm/{arch}`
    const cold = await runHarness('cold', ['cold']);
    const coldPrefix = `${livePrefix}-coldrun-${path.basename(cold)}`;
    // The change: every target's COPY'd source file gets new contents of another size ("1\n" was 2 bytes).
    const changed = 'evidence-change-12345\n';
    for (const target of Object.keys(readRun(cold).targets))
      writeFileSync(path.join(fleet.dir, 'src', target, 'REVISION'), changed);
    const restore = fleet.useBuildx(oldestBuildx);
    let warm: string;
    try {
      warm = await runHarness('warm', ['warm']);
    } finally {
      restore();
    }
    const versionOf = (node: string) =>
      fleet.nodes.find((candidate) => candidate.name === node)!.buildkitVersion;
    expect(versionOf(oldestNode)).toBe(oldestBuildkit);

    for (const [runDir, prefix] of [
      [cold, coldPrefix],
      [warm, livePrefix],
    ] as const) {
      const run = readRun(runDir);
      expect(run.status, runDir).toBe('completed');
      const evidence = run.evidence!;
      for (const node of fleet.nodes) {
        const builder = evidence.builders.find((entry) => entry.node === node.name)!;
        // The builder as the measured run found it: its BuildKit release, as the box started it.
        expect(builder.identity?.buildkitVersion, node.name).toBe(node.buildkitVersion);
        if (node.buildkitVersion === currentBuildkit) {
          expect(builder.cacheDebug, node.name).toMatchObject({
            status: 'saved',
            address: '127.0.0.1:6060',
            file: `cache-debug-${node.name}.json`,
          });
        } else {
          expect(builder.cacheDebug.status, node.name).toBe('off');
          expect(builder.cacheDebug.note).toMatch(/--save-cache-debug --debugaddr .*buildkit_debug/);
          expect(evidence.notes).toContain(builder.cacheDebug.note);
        }
      }
      const ranOn = Object.entries(run.targets).map(([target, outcome]) => [target, outcome.node] as const);
      const onCurrent = ranOn.filter(([, node]) => versionOf(node) === currentBuildkit);
      expect(onCurrent.length, `${runDir}: no target ran on a v0.32.2 node`).toBeGreaterThan(0);
      for (const [target, node] of onCurrent) {
        // The exec record of the target's RUN, with this run's value of the build arg that differs between runs.
        const envs = findCompileEnvs(readDatabase(runDir, node), target);
        expect(
          envs.map((env) => env.find((line) => line.startsWith('SCCACHE_WEBDAV_KEY_PREFIX='))),
          target,
        ).toContain(`SCCACHE_WEBDAV_KEY_PREFIX=${prefix}`);
      }
      // Every target: mode=max provenance with the build args and the LLB of the target's RUN, from its metadata
      // file or, where buildx could not put it there (buildx v0.23.0 and BuildKit v0.32.2's SLSA v1), the record.
      for (const [target, node] of ranOn) {
        const provenance = readProvenance(runDir, target);
        const where = `${target} on ${node} (${provenance.from})`;
        expect(provenance.args?.['build-arg:SCCACHE_WEBDAV_KEY_PREFIX'], where).toBe(prefix);
        expect(
          provenance.execs.some((command) => command.includes(`box-compile -target ${target} `)),
          where,
        ).toBe(true);
        expect(provenance.buildkitMetadata, where).toBeDefined();
        expect(evidence.provenance[target]?.mode, where).toBe('max');
        expect(evidence.provenance[target]?.source, where).toBe(provenance.from);
      }
    }

    // After the warm run the databases hold both runs: the cold exec records (the database outlives runs) beside
    // the warm ones, and the COPY'd file's header before (2 bytes) and after (22 bytes) the change.
    const warmRun = readRun(warm);
    const coldRun = readRun(cold);
    const current = fleet.nodes
      .filter((node) => node.buildkitVersion === currentBuildkit)
      .map((node) => node.name);
    const databases = current.map((node) => readDatabase(warm, node));
    for (const [target, outcome] of Object.entries(coldRun.targets)) {
      if (!current.includes(outcome.node)) continue;
      const envs = findCompileEnvs(readDatabase(warm, outcome.node), target).flat();
      expect(envs, `${target}: the cold run's record on ${outcome.node}`).toContain(
        `SCCACHE_WEBDAV_KEY_PREFIX=${coldPrefix}`,
      );
    }
    const sizes = new Set(databases.flatMap((db) => [...findRevisionSizes(db)]));
    expect(sizes).toContain('2');
    expect(sizes).toContain(String(Buffer.byteLength(changed)));

    // The oldest pair (buildx v0.23.0 + BuildKit v0.17.3) in the warm run: provenance max, no database, a note.
    const onOldest = Object.entries(warmRun.targets).filter(([, outcome]) => outcome.node === oldestNode);
    expect(onOldest.length, 'no target of the warm run ran on the oldest pair').toBeGreaterThan(0);
    // Its provenance comes in the metadata file (BuildKit v0.17.3 writes SLSA v0.2, which buildx v0.23.0 reads);
    // BuildKit v0.32.2's SLSA v1 under buildx v0.23.0 comes from the record's attachment.
    for (const [target, outcome] of Object.entries(warmRun.targets))
      expect(warmRun.evidence?.provenance[target], `${target} on ${outcome.node}`).toMatchObject(
        outcome.node === oldestNode
          ? { mode: 'max', source: 'metadata', slsa: 'v0.2' }
          : { mode: 'max', source: 'attachment', slsa: 'v1' },
      );
    expect(readFileSync(path.join(warm, 'run.json'), 'utf8')).not.toContain(`cache-debug-${oldestNode}.json`);
  }, 900_000);
});
