import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { renderWhySentence } from '../../src/explain/render-why.js';
import type { DataFile, MissCause } from '../../src/artifacts/index.js';
import { bumpSourceRevisions } from '../fleet/real/bake-project.js';
import { readData, readDependencies, readRun, useHarnessBox } from './harness-helpers.js';

// Why each target missed (issue 37 items 1 and 3), on the fleet in a box (real BuildKit v0.32.2 with the cache-key
// debug database, bake attesting mode=max provenance): one warm run as the baseline, then one warm run per cause made
// on purpose, each compared by the product with the run before it. Each scenario asserts the product names exactly
// that cause with the right old and new values, and that every target the change did not touch had no miss. The
// truth is what the test did (the file it edited, the arg it set) and what the registry says (the base tag's digest
// before and after it moved), never a figure the product computed.

const execFileAsync = promisify(execFile);
const { box, runHarness } = useHarnessBox({
  fleet: { scale: { timeScale: 1 / 600 }, provenance: true },
  rootName: 'harness-why',
  sampleIntervalMs: 1000,
});

type Why = NonNullable<DataFile['summary']['targets'][number]['why']>;

function whyOf(data: DataFile): Map<string, Why | null> {
  return new Map(data.summary.targets.map((t) => [t.target, t.why]));
}

/** Every target not named has no miss; returns the named ones' why. */
function expectOnlyMisses(data: DataFile, missed: readonly string[]): Map<string, Why> {
  const why = whyOf(data);
  const out = new Map<string, Why>();
  for (const [target, entry] of why) {
    expect(entry, `${target} was not explained`).not.toBeNull();
    if (missed.includes(target)) {
      expect(entry!.firstMiss, `${target} should have missed`).not.toBeNull();
      out.set(target, entry!);
    } else expect(entry!.firstMiss, `${target} missed: ${JSON.stringify(entry!.cause)}`).toBeNull();
  }
  return out;
}

async function docker(args: readonly string[]): Promise<string> {
  const { fleet } = box();
  const { stdout } = await execFileAsync('docker', args, {
    cwd: fleet.dir,
    env: { ...process.env, ...fleet.env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/** The registry's own answer: the digest a tag names now (HEAD on the manifest, through the box's registry). */
async function readTagDigest(repository: string, tag: string): Promise<string> {
  const response = await fetch(`${box().fleet.services.registryUrl}/v2/${repository}/manifests/${tag}`, {
    method: 'HEAD',
    headers: {
      accept: [
        'application/vnd.oci.image.index.v1+json',
        'application/vnd.oci.image.manifest.v1+json',
        'application/vnd.docker.distribution.manifest.v2+json',
      ].join(', '),
    },
  });
  expect(response.status, `HEAD ${repository}:${tag}`).toBe(200);
  return response.headers.get('docker-content-digest') ?? '';
}

async function deleteTag(ref: string): Promise<void> {
  const [, repository, tag] = /^[^/]+\/(.+):([^:/]+)$/.exec(ref) ?? [];
  const digest = await readTagDigest(repository!, tag!);
  const response = await fetch(`${box().fleet.services.registryUrl}/v2/${repository}/manifests/${digest}`, {
    method: 'DELETE',
  });
  expect(response.status, `DELETE ${ref}`).toBe(202);
}

let lastDir = '';
/** What the product said in each scenario (printed at the end: the closing note's table). */
const said: string[] = [];
const warm = async (name: string): Promise<DataFile> => {
  lastDir = await runHarness(name, ['warm']);
  const data = readData(lastDir);
  for (const t of data.summary.targets) {
    const sentence = renderWhySentence(t);
    if (sentence) said.push(`${name}: ${sentence}`);
  }
  return data;
};
afterAll(() => {
  process.stdout.write(
    `\nwhat the product said, per scenario:\n${said.map((line) => `  ${line}`).join('\n')}\n`,
  );
});

describe('why each target missed, one cause at a time on one box', () => {
  const state: { targets: string[]; deps: Map<string, string[]> } = { targets: [], deps: new Map() };

  it('baseline: two warm runs with nothing changed; the second has no miss and compares with the first', async () => {
    await warm('base-1');
    const data = await warm('base-2');
    state.deps = readDependencies(box().fleet);
    state.targets = data.summary.targets.map((t) => t.target);
    expect(state.targets.length).toBeGreaterThan(3);
    expect(data.summary.why?.against).toMatch(/\S/);
    expectOnlyMisses(data, []);
  });

  it('a source file bumped: files under COPY (REVISION changed); its dependants name it as the dependency rebuilt', async () => {
    const { fleet } = box();
    const [target] = [...state.deps.keys()].filter((t) =>
      [...state.deps.values()].some((d) => d.includes(t)),
    );
    expect(target, 'a target others depend on').toBeDefined();
    const dependants = [...state.deps].filter(([, d]) => d.includes(target!)).map(([t]) => t);
    bumpSourceRevisions(fleet.dir, [target!]);
    const data = await warm('source');
    const why = expectOnlyMisses(data, [target!, ...allDependants(state.deps, target!)]);
    expect(why.get(target!)?.cause).toEqual({
      kind: 'files',
      instruction: `COPY src/${target} /src`,
      added: [],
      removed: [],
      changed: ['REVISION'],
      count: 1,
    } satisfies MissCause);
    // Each dependant's first uncached step copies from a target rebuilt after the bump (the bumped one, or one
    // rebuilt after it): BuildKit keys a COPY by the file it copies, so a dependency whose file came out the same
    // leaves that COPY cached and the next one is the first miss. The cause names exactly the target it copies from.
    const rebuilt = new Set([target!, ...allDependants(state.deps, target!)]);
    for (const dependant of allDependants(state.deps, target!)) {
      const entry = why.get(dependant)!;
      const from = /--from=(\S+)/.exec(entry.firstMiss!.name)?.[1];
      expect(from, `${dependant}'s first miss ${entry.firstMiss!.name}`).toBeDefined();
      expect(rebuilt.has(from!), `${dependant} copies from ${from}`).toBe(true);
      expect(entry.cause, dependant).toEqual({ kind: 'dependency-rebuilt', targets: [from] });
    }
    expect(dependants.length).toBeGreaterThan(0);
    expect(why.get(target!)?.rebuiltAfter).toEqual(expect.arrayContaining(dependants));
    expect(why.get(target!)?.costSeconds).not.toBeNull();
  });

  it('a build arg changed in the bake file: build arg BOX_UNITS old → new on the RUN step', async () => {
    const { fleet } = box();
    const target = leaf(state, 0);
    const file = path.join(fleet.dir, 'docker-bake.hcl');
    const hcl = readFileSync(file, 'utf8');
    const block = new RegExp(`(target "${target}" \\{[\\s\\S]*?BOX_UNITS = ")(\\d+)(")`);
    const old = block.exec(hcl)![2]!;
    const next = String(Number(old) + 1);
    writeFileSync(file, hcl.replace(block, `$1${next}$3`));
    const why = expectOnlyMisses(await warm('arg'), [target]);
    expect(why.get(target)?.firstMiss?.name).toMatch(/\bRUN box-compile\b/);
    expect(why.get(target)?.cause).toEqual({ kind: 'build-arg', name: 'BOX_UNITS', old, new: next });
  });

  it('a Dockerfile line edited: the instruction, old → new text', async () => {
    const { fleet } = box();
    const target = leaf(state, 1);
    const file = path.join(fleet.dir, 'docker', `${target}.Dockerfile`);
    const text = readFileSync(file, 'utf8');
    const old = text.split('\n').find((line) => line.startsWith('RUN box-compile'))!;
    const edited = old.replace('RUN box-compile', 'RUN true && box-compile');
    writeFileSync(file, text.replace(old, edited));
    const why = expectOnlyMisses(await warm('instruction'), [target]);
    expect(why.get(target)?.cause).toEqual({ kind: 'instruction', old, new: edited });
  });

  it('the cache ref deleted and its builder pruned: the cache import had nothing, for that target only', async () => {
    const target = leaf(state, 2);
    const run = readRun(lastDir);
    const ref = run.uploadRefs?.[target]?.cache[0];
    expect(ref, `${target}'s cache ref in run.json`).toBeDefined();
    await deleteTag(ref!);
    await docker([
      'buildx',
      'prune',
      '-af',
      '--builder',
      run.nodes.find((n) => n.name === run.targets[target]!.node)!.builder,
    ]);
    const why = expectOnlyMisses(await warm('noref'), [target]);
    expect(why.get(target)?.cause).toEqual({ kind: 'cache-import-empty', ref, evidence: 'ref-missing' });
  });

  it('a builder pruned with its registry cache refs intact: no target misses (the import gives every step)', async () => {
    const run = readRun(lastDir);
    const node = run.nodes.find((n) => Object.values(run.targets).some((t) => t.node === n.name))!;
    await docker(['buildx', 'prune', '-af', '--builder', node.builder]);
    const data = await warm('pruned');
    expectOnlyMisses(data, []);
    expect(data.summary.targets.some((t) => t.node === node.name)).toBe(true);
  });

  it('the base tag moved to a new digest: every target names the input image, old → new as the registry says', async () => {
    const { fleet } = box();
    const repository = 'rocm/rocm-base';
    const tag = readRun(lastDir).arch;
    const before = await readTagDigest(repository, tag);
    writeFileSync(path.join(fleet.dir, 'base-rootfs', 'etc', 'why-moved'), 'moved\n');
    await docker(['buildx', 'bake', '--builder', fleet.nodes[0]!.name, '--push', 'rocm-base']);
    const after = await readTagDigest(repository, tag);
    expect(after).not.toBe(before);
    const why = expectOnlyMisses(await warm('base'), state.targets);
    for (const target of state.targets)
      expect(why.get(target)?.cause, target).toEqual({
        kind: 'input-image',
        ref: `docker-image://${new URL(fleet.services.registryUrl).host}/${repository}:${tag}`,
        old: before,
        new: after,
      });
  });
});

function allDependants(deps: Map<string, string[]>, target: string): string[] {
  const out = new Set<string>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const [t, d] of deps)
      if (!out.has(t) && d.some((x) => x === target || out.has(x))) {
        out.add(t);
        grew = true;
      }
  }
  return [...out];
}

/** The n-th target (by name) that no other target depends on: a change to it rebuilds it alone. */
function leaf(state: { targets: string[]; deps: Map<string, string[]> }, n: number): string {
  const used = new Set([...state.deps.values()].flat());
  const leaves = state.targets.filter((t) => !used.has(t)).sort();
  expect(leaves.length, `independent targets: ${leaves.join(', ')}`).toBeGreaterThan(n);
  return leaves[n]!;
}
