import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataFileSchema } from '../../../src/artifacts/index.js';
import { buildReportModel } from '../../../src/report/build-model.js';
import { readRegistryLog } from '../../../src/collect/log-reader/read-registry-log.js';
import { summarizeRegistry } from '../../../src/collect/logs/summarize-registry.js';
import { buildAddressToNode, readRunInputs } from '../../../src/run-dir/read-run-dir.js';
import { FIXTURE_RUNS, FIXTURE_RUNS_DIR } from '../../../scripts/make-fixture-run.js';
import { openRunDir } from '../../../src/run-dir/open-run-dir.js';

// Golden data.json for each committed fixture run dir (regenerate the dirs with scripts/make-fixture-run.ts,
// then the snapshots with `vitest -u`). A diff here is a change to the data.json contract: bump DATA_VERSION
// and docs/data-json.md if a field changed meaning.

const GENERATED_AT_MS = Date.UTC(2026, 2, 14, 12, 0, 0);

describe.each(Object.keys(FIXTURE_RUNS))('data.json of fixture run %s', (name) => {
  it('matches the golden file and the schema', async () => {
    const inputs = await readRunInputs({
      runDir: openRunDir(path.join(FIXTURE_RUNS_DIR, name)),
      generatedAtMs: GENERATED_AT_MS,
    });
    const model = buildReportModel(inputs);
    expect(DataFileSchema.parse(model)).toEqual(model);
    expect(model.summary.warnings.filter((w) => w.level === 'loud')).toEqual([]);
    await expect(`${JSON.stringify(model, null, 2)}\n`).toMatchFileSnapshot(
      `__snapshots__/${name}.data.json`,
    );
  });
});

describe('fixture runs read through the real parsers', () => {
  it('a warm run: every stream has records, nothing rejected, harness and plan carried through', async () => {
    const model = buildReportModel(
      await readRunInputs({
        runDir: openRunDir(path.join(FIXTURE_RUNS_DIR, '20260314T092000Z-warm')),
        generatedAtMs: GENERATED_AT_MS,
      }),
    );
    expect(model.run).toMatchObject({
      harness: 'warm',
      namespace: 'rocm',
      hasRunFile: true,
      hasPlanFile: true,
      strategy: 'heft-ls',
    });
    for (const [name, stream] of Object.entries(model.summary.streams)) {
      expect({
        name,
        present: stream.present,
        rejected: stream.rejected,
        hasRecords: stream.records > 0,
      }).toEqual({ name, present: true, rejected: 0, hasRecords: true });
    }
    expect(model.summary.targets).toHaveLength(6);
    expect(
      model.summary.targets.every(
        (t) => (t.totalSeconds ?? 0) > (t.buildSeconds ?? Infinity) && t.plannedStartSeconds !== null,
      ),
    ).toBe(true);
    expect(model.summary.sccache.total.hits).toBeGreaterThan(0);
    expect(model.summary.registry.cache.blobsWritten).toBeGreaterThan(0);
    expect(Object.keys(model.summary.sccache.perNode).sort()).toEqual(['anvil', 'forge', 'strix']);
  });

  it('a run dir with only the spec files is labelled harness unknown', async () => {
    const model = buildReportModel(
      await readRunInputs({
        runDir: openRunDir(path.join(FIXTURE_RUNS_DIR, '20250901T120000Z-spec-only')),
        generatedAtMs: GENERATED_AT_MS,
      }),
    );
    expect(model.run).toMatchObject({
      harness: 'unknown',
      namespace: null,
      hasRunFile: false,
      hasPlanFile: false,
    });
    expect(model.summary.targets.every((t) => t.node === 'unknown')).toBe(true);
    expect(model.summary.makespanSeconds).toBeGreaterThan(0);
  });

  it('summarises the registry log as it reads it: the summary of every record, none held', async () => {
    const dir = path.join(FIXTURE_RUNS_DIR, '20260314T092000Z-warm');
    const inputs = await readRunInputs({ runDir: openRunDir(dir), generatedAtMs: GENERATED_AT_MS });
    const every = await readRegistryLog({
      path: path.join(dir, 'zot.jsonl'),
      format: inputs.run?.registryLogFormat ?? 'zot',
      cachePatterns: inputs.run?.registryCachePatterns ?? [],
      addressToNode: buildAddressToNode(inputs.run),
    });
    expect(every.records.length).toBeGreaterThan(0);
    expect(inputs.registry).toEqual(summarizeRegistry(every.records));
    const stream = inputs.streams.find((one) => one.name === 'zot.jsonl');
    expect(stream?.stats?.records).toBe(every.stats.records);
  });
});
