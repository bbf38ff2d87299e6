import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readAdviseInput } from '../../../src/advise/read-advise-input.js';
import { loadRunModel } from '../../../src/report/index.js';
import { repoRoot } from '../../helpers/run-built-cli.js';
import { openRunDir } from '../../../src/run-dir/open-run-dir.js';

// Where the advisor finds a target's provenance: a build record's provenance-<target>.json first (BuildKit ≥ v0.28.0
// writes SLSA v1 there when buildx leaves the metadata file empty; a .dockerbuild import writes it), else the
// metadata file. The record is the real SLSA v1 attachment `buildx history inspect attachment` returned from BuildKit
// v0.32.2 (test/fixtures/buildkit-explain/capture-attachment-slsa1.v0.32.2.json: one arg, FOO=3).

const sample = path.join(repoRoot, 'fixtures/runs/gfx1201-warm');
const record = path.join(repoRoot, 'test/fixtures/buildkit-explain/capture-attachment-slsa1.v0.32.2.json');
const temp = mkdtempSync(path.join(tmpdir(), 'rocm-perf-advise-provenance-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('the advisor’s provenance', () => {
  it('takes a build record’s SLSA v1 provenance-<target>.json over the metadata file, and the metadata file without one', async () => {
    const dir = path.join(temp, path.basename(sample));
    cpSync(sample, dir, { recursive: true });
    writeFileSync(path.join(dir, 'provenance-pytorch.json'), readFileSync(record));
    const runDir = openRunDir(dir);
    const { model, runFile, plan } = await loadRunModel({ runDir, nowMs: Date.now() });
    const input = await readAdviseInput({ runDir, model, runFile, plan, runs: 1, root: temp });
    // The record's own args, as the file holds them (its `build-arg:` prefix off).
    const v1 = JSON.parse(readFileSync(record, 'utf8')) as {
      buildDefinition: { externalParameters: { request: { args: Record<string, string> } } };
    };
    const recordArgs = Object.fromEntries(
      Object.entries(v1.buildDefinition.externalParameters.request.args).map(([k, v]) => [
        k.replace(/^build-arg:/, ''),
        v,
      ]),
    );
    expect(input.provenance.get('pytorch')?.args).toEqual(recordArgs);
    // Another target still reads its metadata file: its args as meta-<target>.json holds them.
    const meta = JSON.parse(readFileSync(path.join(dir, 'meta-triton-wheel.json'), 'utf8')) as Record<
      string,
      { 'buildx.build.provenance': { invocation: { parameters: { args: Record<string, string> } } } }
    >;
    const metaArgs = Object.fromEntries(
      Object.entries(meta['triton-wheel']!['buildx.build.provenance'].invocation.parameters.args)
        .filter(([k]) => k.startsWith('build-arg:'))
        .map(([k, v]) => [k.slice('build-arg:'.length), v]),
    );
    expect(Object.keys(metaArgs).length).toBeGreaterThan(0);
    expect(input.provenance.get('triton-wheel')?.args).toEqual(metaArgs);
  });
});
