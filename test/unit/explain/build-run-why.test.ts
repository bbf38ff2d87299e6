import { describe, expect, it } from 'vitest';
import { buildRunWhy, type WhyEvidence } from '../../../src/explain/build-run-why.js';
import { parseProvenance } from '../../../src/explain/parse-provenance.js';
import { parseStatusVertices } from '../../../src/explain/parse-status-vertices.js';
import { loadStep, read } from './fixture-evidence.js';

// Each pair of real captures differs in exactly one thing (test/fixtures/buildkit-explain/README.md); the truth is
// what capture.sh changed, written here by hand, not anything the explainer computed.
const explain = (
  previous: string,
  current: string,
  options: Parameters<typeof loadStep>[1] = {},
  currentOptions = options,
) => buildRunWhy({ previous: loadStep(previous, options), current: loadStep(current, currentOptions) });

describe('buildRunWhy on real BuildKit v0.32.2 captures', () => {
  it('a warm rebuild with nothing changed: every step cached, no miss, no cause', () => {
    const why = explain('01-cold', '02-warm');
    expect(why.targets.get('lib')).toEqual({
      firstMiss: null,
      cause: null,
      rebuiltAfter: [],
      costSeconds: null,
    });
    expect(why.targets.get('app')?.firstMiss).toBeNull();
    expect(why.run.against).toBe('01-cold');
  });

  it('an ARG changed: app RUN missed, build arg ROCM_VERSION 6.4 → 6.5; lib untouched', () => {
    const why = explain('02-warm', '03-arg');
    const app = why.targets.get('app')!;
    expect(app.firstMiss?.name).toMatch(/^\[app stage-0 3\/4\] RUN mkdir -p \/out/);
    expect(app.cause).toEqual({ kind: 'build-arg', name: 'ROCM_VERSION', old: '6.4', new: '6.5' });
    expect(why.targets.get('lib')?.firstMiss).toBeNull();
  });

  it('files under COPY changed: main.c changed and NEWS added, from the cache-debug records', () => {
    const why = explain('03-arg', '04-files', { cacheDebug: true });
    expect(why.targets.get('app')?.cause).toEqual({
      kind: 'files',
      instruction: 'COPY src/app /src',
      added: ['NEWS'],
      removed: [],
      changed: ['main.c'],
      count: 2,
    });
  });

  it('a COPY on another builder than the compared run: its files are not compared across two databases', () => {
    // Found on the re-recorded box sample: a target that moved builder with its files unchanged was said to have
    // "files changed", because content new to the new builder's database was taken for a change between the runs.
    const why = explain(
      '03-arg',
      '04-files',
      { cacheDebug: true, node: 'n1' },
      { cacheDebug: true, node: 'n2' },
    );
    const cause = why.targets.get('app')?.cause;
    expect(cause?.kind).toBe('unknown');
    expect(cause?.kind === 'unknown' && cause.missing.join()).toContain('compared on one builder');
  });

  it('files changed on a builder without the debug database: unknown, naming the setting', () => {
    const why = explain('03-arg', '04-files');
    const cause = why.targets.get('app')?.cause;
    expect(cause?.kind).toBe('unknown');
    expect(cause?.kind === 'unknown' && cause.missing.join()).toContain('--save-cache-debug');
    expect(why.run.notes.join()).toContain('--save-cache-debug');
  });

  it('a Dockerfile line changed: instruction old → new text', () => {
    const cause = explain('04-files', '05-instruction').targets.get('app')?.cause;
    expect(cause).toEqual({
      kind: 'instruction',
      old: 'RUN mkdir -p /out && cat /src/REVISION /deps/lib.txt > /out/app.txt && echo "rocm $ROCM_VERSION" >> /out/app.txt',
      new: 'RUN mkdir -p /out && cat /src/REVISION /deps/lib.txt > /out/app.txt && echo built >> /out/app.txt && echo "rocm $ROCM_VERSION" >> /out/app.txt',
    });
  });

  it('the base tag moved to a new digest: input image, old → new digest, for both targets', () => {
    const why = explain('05-instruction', '06-base');
    for (const target of ['lib', 'app']) {
      expect(why.targets.get(target)?.cause).toEqual({
        kind: 'input-image',
        ref: 'docker-image://127.0.0.1:35111/rocm/base:gfx1201',
        old: 'sha256:50fe50815fdae10912e1e8d1546825259ba391fea537cc87fdcdc19616b6ccb4',
        new: 'sha256:a8ba056ba6dc67228d0e70281ddfcf8fb9e7d3e1fdb53fa79bca0e87eecf0dd8',
      });
    }
  });

  it('a dependency rebuilt: app’s COPY --from=lib names lib, and lib lists app as rebuilt after it', () => {
    const why = explain('06-base', '07-dep');
    expect(why.targets.get('app')?.firstMiss?.name).toMatch(/COPY --from=lib/);
    expect(why.targets.get('app')?.cause).toEqual({ kind: 'dependency-rebuilt', targets: ['lib'] });
    expect(why.targets.get('lib')?.rebuiltAfter).toEqual(['app']);
  });

  it('a pruned builder with the registry cache still there: no miss (the import gave every step)', () => {
    const why = explain('07-dep', '08-pruned');
    expect(why.targets.get('lib')?.firstMiss).toBeNull();
    expect(why.targets.get('app')?.firstMiss).toBeNull();
  });

  it('the cache refs deleted: cache import empty, ref missing, each target its own ref', () => {
    const why = explain('08-pruned', '09-noref');
    expect(why.targets.get('lib')?.cause).toEqual({
      kind: 'cache-import-empty',
      ref: '127.0.0.1:35111/rocm/cache:lib-gfx1201',
      evidence: 'ref-missing',
    });
    expect(why.targets.get('app')?.cause).toEqual({
      kind: 'cache-import-empty',
      ref: '127.0.0.1:35111/rocm/cache:app-gfx1201',
      evidence: 'ref-missing',
    });
  });

  it('another builder than the compared run’s and nothing else changed: builder cache lost, naming both', () => {
    // 03-arg's lib: its inputs are 02-warm's; here it ran on n2 (02-warm on n1) and its RUN is marked uncached
    const current = loadStep('03-arg', { node: 'n2' });
    const lib = current.targets['lib']!;
    const status = {
      ...lib.status!,
      vertices: lib.status!.vertices.map((v) =>
        v.step?.instruction.startsWith('RUN') ? { ...v, cached: false } : v,
      ),
    };
    const why = buildRunWhy({
      previous: loadStep('02-warm', { node: 'n1' }),
      current: { ...current, targets: { ...current.targets, lib: { ...lib, status } } },
    });
    expect(why.targets.get('lib')?.firstMiss?.name).toMatch(/^\[2\/3\] RUN/);
    expect(why.targets.get('lib')?.cause).toEqual({
      kind: 'builder-cache-lost',
      builder: 'n2',
      evidence: 'lib ran on n2; 02-warm built it on n1',
    });
  });

  it('the same builder pruned (buildx du’s oldest record moved forward): builder cache lost, with both times', () => {
    const current = loadStep('03-arg');
    const lib = current.targets['lib']!;
    const status = {
      ...lib.status!,
      vertices: lib.status!.vertices.map((v) =>
        v.step?.instruction.startsWith('RUN') ? { ...v, cached: false } : v,
      ),
    };
    const previous = loadStep('02-warm');
    const why = buildRunWhy({
      previous: {
        ...previous,
        builders: { n1: { oldestRecordCreatedAt: '2026-12-06T18:46:00Z', cacheRecords: 40 } },
      },
      current: {
        ...current,
        targets: { ...current.targets, lib: { ...lib, status } },
        builders: { n1: { oldestRecordCreatedAt: '2026-12-06T18:49:00Z', cacheRecords: 3 } },
      },
    });
    expect(why.targets.get('lib')?.cause).toEqual({
      kind: 'builder-cache-lost',
      builder: 'n1',
      evidence:
        'buildx du: its oldest cache record moved 2026-12-06T18:46:00Z → 2026-12-06T18:49:00Z (pruned or recreated between 02-warm and this run; 40 → 3 records)',
    });
    // the same builder with the same oldest record: not lost, and nothing else explains it
    const kept = buildRunWhy({
      previous: {
        ...previous,
        builders: { n1: { oldestRecordCreatedAt: '2026-12-06T18:46:00Z', cacheRecords: 40 } },
      },
      current: {
        ...current,
        targets: { ...current.targets, lib: { ...lib, status } },
        builders: { n1: { oldestRecordCreatedAt: '2026-12-06T18:46:00Z', cacheRecords: 44 } },
      },
    });
    expect(kept.targets.get('lib')?.cause?.kind).toBe('unknown');
  });

  it('the same builder holding no cache record at all (buildx prune -af): builder cache lost, with both counts', () => {
    // On the box, `buildx prune -af` between two runs leaves `buildx du` no record: no oldest time to compare.
    const current = loadStep('03-arg');
    const lib = current.targets['lib']!;
    const status = {
      ...lib.status!,
      vertices: lib.status!.vertices.map((v) =>
        v.step?.instruction.startsWith('RUN') ? { ...v, cached: false } : v,
      ),
    };
    const previous = loadStep('02-warm');
    const run = (cacheRecords: number, oldestRecordCreatedAt: string | null) =>
      buildRunWhy({
        previous: {
          ...previous,
          builders: { n1: { oldestRecordCreatedAt: '2026-12-06T18:46:00Z', cacheRecords: 40 } },
        },
        current: {
          ...current,
          targets: { ...current.targets, lib: { ...lib, status } },
          builders: { n1: { oldestRecordCreatedAt, cacheRecords } },
        },
      }).targets.get('lib')?.cause;
    expect(run(0, null)).toEqual({
      kind: 'builder-cache-lost',
      builder: 'n1',
      evidence:
        'buildx du: it held no cache record before this run (40 before 02-warm, which built lib on it): pruned or recreated since',
    });
    // records kept (the oldest not moved): not lost, and nothing else explains it
    expect(run(44, '2026-12-06T18:46:00Z')?.kind).toBe('unknown');
  });

  it('another builder, but a COPY whose files cannot be compared: unknown, never builder cache lost', () => {
    const why = buildRunWhy({
      previous: loadStep('06-base', { node: 'n1' }),
      current: loadStep('07-dep', { node: 'n2' }),
    });
    expect(why.targets.get('lib')?.cause?.kind).toBe('unknown');
  });

  it('min-mode provenance: the single changed arg still named, the note names mode=max', () => {
    const why = explain('02-warm', '03-arg', { provenance: 'min' });
    expect(why.targets.get('app')?.cause).toEqual({
      kind: 'build-arg',
      name: 'ROCM_VERSION',
      old: '6.4',
      new: '6.5',
    });
    expect(why.run.notes.join()).toContain('mode=max');
  });

  it('no provenance at all: the import failure is still named (the status stream alone)', () => {
    const why = explain('08-pruned', '09-noref', { provenance: 'none' });
    expect(why.targets.get('lib')?.cause?.kind).toBe('cache-import-empty');
    expect(why.run.notes.join()).toContain('attest');
  });

  it('no compared run: the miss is found, its cause unknown naming what to compare with', () => {
    const why = buildRunWhy({ previous: undefined, current: loadStep('03-arg') });
    const app = why.targets.get('app')!;
    expect(app.firstMiss).not.toBeNull();
    expect(app.cause?.kind === 'unknown' && app.cause.missing[0]).toMatch(/previous run/);
    expect(why.run.against).toBeNull();
  });
});

describe('the oldest supported pair (buildx v0.23.0, BuildKit v0.17.3: mode=max provenance, no debug database)', () => {
  // why-capture's captures (capture-README.md): two bakes differing in ARG FOO 1 → 2 and in src/file.txt.
  const evidence = (n: '1' | '2', v: string, markCopyCached = false): WhyEvidence => {
    const status = parseStatusVertices(read(`capture-status-${n}.${v}.jsonl`));
    const meta = JSON.parse(read(`capture-meta-${n}.${v}.json`)) as { app: Record<string, unknown> };
    return {
      stamp: `run-${n}`,
      targets: {
        app: {
          status: markCopyCached
            ? {
                ...status,
                vertices: status.vertices.map((x) =>
                  x.step?.instruction.startsWith('COPY src') ? { ...x, cached: true } : x,
                ),
              }
            : status,
          provenance: parseProvenance(meta.app['buildx.build.provenance']),
          node: 'kiln',
        },
      },
      content: {},
      deps: { app: [] },
    };
  };

  it('the changed file’s COPY is found and left unknown, naming --save-cache-debug and BuildKit v0.24.0', () => {
    const why = buildRunWhy({ previous: evidence('1', 'v0.17.3'), current: evidence('2', 'v0.17.3') });
    const app = why.targets.get('app')!;
    expect(app.firstMiss?.name).toBe('[2/3] COPY src /src');
    expect(app.cause?.kind).toBe('unknown');
    expect(why.run.notes).toEqual([
      expect.stringMatching(/--save-cache-debug.*BuildKit v0\.24\.0/) as string,
    ]);
  });

  it('its mode=max provenance still names the arg a RUN saw: build arg FOO 1 → 2', () => {
    const why = buildRunWhy({ previous: evidence('1', 'v0.17.3'), current: evidence('2', 'v0.17.3', true) });
    expect(why.targets.get('app')?.firstMiss?.name).toMatch(/^\[3\/3\] RUN /);
    expect(why.targets.get('app')?.cause).toEqual({ kind: 'build-arg', name: 'FOO', old: '1', new: '2' });
  });
});
