// The harness saves each builder's cache-key debug database after the run (one GET per builder, over the node's
// ssh link) and checks each metadata file's provenance; what a builder does not record becomes a note naming the
// setting. The answers are real ones (test/fixtures/buildkit-explain/capture-README.md): buildkitd v0.32.2's
// /debug/cache/all body, v0.17.3's 404, v0.32.2's `null` without --save-cache-debug; the metadata entries are
// real buildx metadata files (max and min provenance).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunFileSchema } from '../../../../../src/artifacts/index.js';
import type {
  FetchOverSshOptions,
  FetchOverSshResult,
} from '../../../../../src/run/executors/fetch-over-ssh.js';
import { runHarness } from '../../../../../src/run/harness/run-harness.js';
import { CACHE_DEBUG_MAX_BYTES } from '../../../../../src/run/harness/finalize/save-builder-evidence.js';
import type { FetchAttachment } from '../../../../../src/run/executors/buildx.js';
import { createFakeWorld, writeFleetFixture } from '../../../../helpers/harness-fixture.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../../fixtures/buildkit-explain/${name}`, import.meta.url));
const realBody = fixture('capture-cache-all.v0.32.2.json');
const slsa1 = fixture('capture-attachment-slsa1.v0.32.2.json');
type FetchAttachmentOptions = Parameters<FetchAttachment>[0];
const realMeta = (name: string) =>
  (JSON.parse(fixture(name).toString('utf8')) as { app: Record<string, unknown> }).app;

let fleet: ReturnType<typeof writeFleetFixture>;
beforeEach(() => {
  fleet = writeFleetFixture();
});
afterEach(() => fleet.remove());

/** Gives forge and anvil ssh and a debug address; kiln keeps neither. */
function addDebugAddresses(fleetPath: string) {
  const text = readFileSync(fleetPath, 'utf8')
    .replace(
      'name: forge,',
      'name: forge, ssh: { host: forge.test, user: builder }, buildkit_debug: "127.0.0.1:6060",',
    )
    .replace(
      'name: anvil,',
      'name: anvil, ssh: { host: anvil.test, user: builder }, buildkit_debug: "[::1]:6061",',
    );
  writeFileSync(fleetPath, text);
}

async function runWarm(answers: Record<string, FetchOverSshResult>) {
  const fake = createFakeWorld({ sccacheLog: fleet.sccacheLog, registryLog: fleet.registryLog });
  const asked: FetchOverSshOptions[] = [];
  const askedAtMs: number[] = [];
  const provenance: Record<string, unknown> = {
    pytorch: realMeta('capture-meta-2.v0.32.2.json')['buildx.build.provenance'],
    'a-wheel': realMeta('capture-meta-min.v0.32.2.json')['buildx.build.provenance'],
    // buildx v0.23.0 on BuildKit v0.32.2: the SLSA v1 predicate read as v0.2, an empty shell.
    'b-wheel': realMeta('capture-meta-buildx-v0.23.0.v0.32.2.json')['buildx.build.provenance'],
  };
  const attachments: FetchAttachmentOptions[] = [];
  const result = await runHarness({
    harness: 'warm',
    fleetPath: fleet.fleetPath,
    flags: {},
    root: path.join(fleet.dir, 'runs'),
    env: {},
    sshAgent: undefined,
    dockerConfigDir: '/nonexistent/.docker',
    logLevel: 'warn',
    dispatch: 'fixed',
    coldNamespaceSuffix: '',
    signal: new AbortController().signal,
    sampleIntervalMs: 10,
    logPollIntervalMs: 10,
    effects: {
      ...fake.effects,
      // The fake bake's metadata file, with the real provenance entry buildx wrote for that kind of build.
      bake: async (options) => {
        const outcome = await fake.effects.bake!(options);
        const meta = JSON.parse(readFileSync(options.metadataFile, 'utf8')) as Record<string, object>;
        if (provenance[options.target] !== undefined)
          meta[options.target] = {
            ...meta[options.target],
            'buildx.build.provenance': provenance[options.target],
          };
        writeFileSync(options.metadataFile, JSON.stringify(meta));
        return outcome;
      },
      // b-wheel's record holds the real SLSA v1 predicate (buildx v0.23.0 cannot put it in the metadata file).
      fetchAttachment: (options) => {
        attachments.push(options);
        const found =
          options.buildRef.endsWith('/idbwheel') && options.type === 'https://slsa.dev/provenance/v1';
        return Promise.resolve({
          ok: found,
          exitCode: found ? 0 : 1,
          command: 'docker buildx history inspect attachment',
          errorTail: found ? '' : 'ERROR: no matching attachment found',
          stdout: found ? slsa1.toString('utf8') : '',
        });
      },
      fetchOverSsh: (options) => {
        asked.push(options);
        askedAtMs.push(Date.now());
        const answer = answers[options.ssh.host];
        if (!answer) throw new Error(`unexpected host ${options.ssh.host}`);
        return Promise.resolve(answer);
      },
    },
  });
  const run = RunFileSchema.parse(JSON.parse(readFileSync(path.join(result.runDir, 'run.json'), 'utf8')));
  return { result, run, asked, attachments, askedAtMs, bakes: fake.bakes };
}

describe('the run saves what each builder recorded for explaining misses', () => {
  it('one GET per builder with a debug address, saved raw and hashed; notes for the rest', async () => {
    addDebugAddresses(fleet.fleetPath);
    const { result, run, asked, attachments, askedAtMs, bakes } = await runWarm({
      'forge.test': { ok: true, status: 200, body: realBody },
      'anvil.test': { ok: true, status: 404, body: fixture('capture-cache-all.v0.17.3.txt') },
    });
    expect(result.exitCode).toBe(0);
    // One request per builder that has the key, after every build, to the address as the node sees it.
    expect(asked.map((options) => [options.ssh.host, options.host, options.port, options.path])).toEqual([
      ['forge.test', '127.0.0.1', 6060, '/debug/cache/all'],
      ['anvil.test', '::1', 6061, '/debug/cache/all'],
    ]);
    expect(asked.every((options) => options.headers?.accept === 'application/json')).toBe(true);
    // After the run's last build: never while a build is measured.
    expect(bakes).toHaveLength(4);
    expect(Math.min(...askedAtMs)).toBeGreaterThanOrEqual(
      Math.max(...bakes.map((bake) => bake.finishedAtMs)),
    );
    expect(asked.every((options) => options.maxBytes === CACHE_DEBUG_MAX_BYTES)).toBe(true);
    const saved = readFileSync(path.join(result.runDir, 'cache-debug-forge.json'));
    expect(saved.equals(realBody)).toBe(true);
    expect(run.files?.['cache-debug-forge.json']?.sizeBytes).toBe(realBody.length);
    const top = JSON.parse(realBody.toString('utf8')) as unknown[];
    const evidence = run.evidence!;
    expect(evidence.builders.map(({ node, builder }) => [node, builder])).toEqual([
      ['forge', 'forge-b'],
      ['anvil', 'anvil-b'],
      ['kiln', 'kiln-b'],
    ]);
    expect(evidence.builders[0]?.cacheDebug).toEqual({
      status: 'saved',
      address: '127.0.0.1:6060',
      file: 'cache-debug-forge.json',
      sizeBytes: realBody.length,
      records: top.length,
    });
    expect(evidence.builders[1]?.cacheDebug).toMatchObject({ status: 'unavailable', address: '[::1]:6061' });
    expect(evidence.builders[2]?.cacheDebug).toMatchObject({ status: 'off' });
    // Each builder as `buildx inspect` and `buildx du --verbose` showed it before the measured run (the fake world
    // answers with the real v0.32.2 capture: 8 records, 5.136MB).
    for (const builder of evidence.builders)
      expect(builder.identity).toMatchObject({
        buildkitVersion: 'v0.32.2',
        cacheRecords: 8,
        cacheBytes: 5.136e6,
      });
    expect(evidence.builders[1]?.cacheDebug.note).toMatch(/HTTP 404: BuildKit older than 0\.24\.0/);
    expect(evidence.builders[2]?.cacheDebug.note).toBe(
      'builder kiln-b (node kiln) records no cache-key debug database: start buildkitd (BuildKit ≥ 0.24.0) with --save-cache-debug --debugaddr 127.0.0.1:6060 and set buildkit_debug: 127.0.0.1:6060 on node kiln in fleet.yaml (docs/cache-debug.md)',
    );
    // pytorch: the metadata file's (max); b-wheel: the record's v1 attachment, saved raw; a-wheel keeps its real
    // mode=min predicate (the record's is min too: not asked); c-wheel (none) is asked for both predicate types.
    expect(evidence.provenance).toEqual({
      pytorch: { mode: 'max', slsa: 'v0.2', source: 'metadata', file: 'meta-pytorch.json' },
      'a-wheel': { mode: 'min', slsa: 'v0.2', source: 'metadata', file: 'meta-a-wheel.json' },
      'b-wheel': { mode: 'max', slsa: 'v1', source: 'attachment', file: 'provenance-b-wheel.json' },
      'c-wheel': { mode: 'none', slsa: 'v0.2', source: 'metadata', file: 'meta-c-wheel.json' },
    });
    expect(readFileSync(path.join(result.runDir, 'provenance-b-wheel.json')).equals(slsa1)).toBe(true);
    expect(run.files?.['provenance-b-wheel.json']?.sizeBytes).toBe(slsa1.length);
    expect(attachments.map((options) => [options.buildRef.split('/').at(-1), options.type])).toEqual([
      ['idbwheel', 'https://slsa.dev/provenance/v1'],
      ['idcwheel', 'https://slsa.dev/provenance/v1'],
      ['idcwheel', 'https://slsa.dev/provenance/v0.2'],
    ]);
    expect(evidence.notes).toHaveLength(3);
    expect(evidence.notes[2]).toMatch(
      /^2 target\(s\) have no mode=max provenance: a-wheel \(min\), c-wheel \(none\): add attest = \["type=provenance,mode=max"\]/,
    );
  });

  it('an empty database (`null`: started without --save-cache-debug), too large, unreachable, not the records', async () => {
    addDebugAddresses(fleet.fleetPath);
    const text = readFileSync(fleet.fleetPath, 'utf8').replace(
      'name: kiln,',
      'name: kiln, ssh: { host: kiln.test, user: builder }, buildkit_debug: "localhost:6062",',
    );
    writeFileSync(fleet.fleetPath, text);
    const { result, run } = await runWarm({
      'forge.test': { ok: true, status: 200, body: Buffer.from('null\n') },
      'anvil.test': { ok: false, stage: 'too-large', reason: 'over the cap' },
      'kiln.test': { ok: true, status: 200, body: Buffer.from('<html>pprof</html>') },
    });
    const statuses = run.evidence?.builders.map((builder) => builder.cacheDebug.status);
    expect(statuses).toEqual(['empty', 'too-large', 'invalid']);
    expect(run.evidence?.builders[0]?.cacheDebug.note).toMatch(/started without --save-cache-debug/);
    expect(run.evidence?.builders[1]?.cacheDebug.note).toMatch(
      /over the 64 MiB cap.*remove <root>\/cache-debug\.db/,
    );
    expect(run.evidence?.builders[2]?.cacheDebug.note).toMatch(/cache-debug-kiln\.json: not JSON/);
    // Nothing saved for any of them.
    for (const node of ['forge', 'anvil', 'kiln'])
      expect(() => readFileSync(path.join(result.runDir, `cache-debug-${node}.json`))).toThrow(/ENOENT/);
    const unreachable = await (async () => {
      fleet.remove();
      fleet = writeFleetFixture();
      addDebugAddresses(fleet.fleetPath);
      return runWarm({
        'forge.test': {
          ok: false,
          stage: 'forward',
          reason: 'builder@forge.test could not reach 127.0.0.1:6060: Connection refused',
        },
        'anvil.test': { ok: false, stage: 'ssh', reason: 'connect ECONNREFUSED' },
      });
    })();
    expect(unreachable.run.evidence?.builders[0]?.cacheDebug).toMatchObject({ status: 'unreachable' });
    expect(unreachable.run.evidence?.builders[0]?.cacheDebug.note).toMatch(
      /nothing answered at its debug address 127\.0\.0\.1:6060 over the node's ssh link \(.*Connection refused\): start buildkitd/,
    );
  });
});
