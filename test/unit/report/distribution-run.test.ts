// A real warm run behind a real CNCF Distribution v3.1.2 registry (test/fixtures/registry-distribution-v3/README.md):
// the report's own readers on its run dir against the registry's disk and the box proxy's record of every request.
// Issue 35 item 9: Distribution logs no request size; registry-sizes.json (the harness's HEADs) sizes every write.
// Item 8: run.json's uploadRefs split each trace's uploads into image and cache, as the registry's repositories do.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRegistryLog } from '../../../src/collect/index.js';
import { readRunInputs } from '../../../src/run-dir/index.js';
import { openRunDir } from '../../../src/run-dir/open-run-dir.js';

const fixtures = path.resolve(import.meta.dirname, '../../fixtures/registry-distribution-v3');
const read = (name: string) => readFileSync(path.join(fixtures, name), 'utf8');
const targets = ['pytorch', 'triton-wheel'];

interface ProxyLine {
  method: string;
  path: string;
  status: number;
  requestBytes: number;
}
const proxy = read('registry-truth.jsonl')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as ProxyLine);
const stored = JSON.parse(read('stored-blob-sizes.json')) as Record<string, number>;

/** The 201 writes Distribution logged (`METHOD URI`), by JSON.parse of its own lines. */
const loggedWrites = new Set(
  read('registry.log')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry['http.response.status'] === 201)
    .map((entry) => `${String(entry['http.request.method'])} ${String(entry['http.request.uri'])}`),
);
const repositoryOf = (requestPath: string) => /^\/v2\/(.+?)\/(?:blobs|manifests)\//.exec(requestPath)?.[1];
/** What the registry stored for a write: the digest's data file size on its disk (a manifest PUT by tag: its body). */
const storedBytes = (line: ProxyLine) => {
  const digest = /[?&]digest=([^&]+)/.exec(line.path)?.[1];
  return digest === undefined ? line.requestBytes : stored[decodeURIComponent(digest)];
};

/** A run dir holding the fixture's files: the slice as zot.jsonl (the run dir's name for any registry log). */
function makeRunDir(options: { sizes: boolean; uploadRefs: boolean }): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'distribution-run-'));
  cpSync(path.join(fixtures, 'registry.log'), path.join(dir, 'zot.jsonl'));
  for (const target of targets)
    cpSync(path.join(fixtures, `trace-${target}.json`), path.join(dir, `trace-${target}.json`));
  if (options.sizes)
    cpSync(path.join(fixtures, 'registry-sizes.json'), path.join(dir, 'registry-sizes.json'));
  const run = JSON.parse(read('run.json')) as Record<string, unknown>;
  if (!options.uploadRefs) delete run.uploadRefs;
  writeFileSync(path.join(dir, 'run.json'), JSON.stringify(run));
  dirs.push(dir);
  return dir;
}
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('item 9: a Distribution v3.1.2 log sized by registry-sizes.json', () => {
  // A cross-repository mount (`POST …?mount=`, 201) writes nothing.
  const writes = proxy.filter(
    (line) => loggedWrites.has(`${line.method} ${line.path}`) && !line.path.includes('mount='),
  );
  const byKind = (isCache: boolean) =>
    writes.filter((line) => (repositoryOf(line.path) === 'rocm/cache') === isCache);
  const sum = (lines: ProxyLine[], size: (line: ProxyLine) => number | undefined) =>
    lines.reduce((total, line) => total + (size(line) ?? Number.NaN), 0);

  it('the log alone gives no size for any write (the defect: 0 bytes)', async () => {
    const { summary } = await readRegistryLog({
      path: path.join(fixtures, 'registry.log'),
      format: 'distribution',
      cachePatterns: ['*/cache:*'],
      keep: () => false,
    });
    expect(summary.cache.bytesWritten + summary.image.bytesWritten).toBe(0);
    expect(summary.cache.bytesUnknown + summary.image.bytesUnknown).toBe(writes.length);
    expect(writes.length).toBeGreaterThan(40);
  });

  it("the report's registry bytes are what the proxy forwarded and the registry's disk holds, per side", async () => {
    const inputs = await readRunInputs({
      runDir: openRunDir(makeRunDir({ sizes: true, uploadRefs: true })),
      generatedAtMs: 0,
    });
    const registry = inputs.registry!;
    expect(registry.cache.bytesUnknown + registry.image.bytesUnknown).toBe(0);
    expect(registry.cache.bytesWritten).toBe(sum(byKind(true), (line) => line.requestBytes));
    expect(registry.image.bytesWritten).toBe(sum(byKind(false), (line) => line.requestBytes));
    expect(registry.cache.bytesWritten).toBe(sum(byKind(true), storedBytes));
    expect(registry.image.bytesWritten).toBe(sum(byKind(false), storedBytes));
    expect(registry.cache.bytesWritten).toBeGreaterThan(5_000_000);
  });
});

describe('item 8: uploads split by run.json uploadRefs equal the registry per repository', () => {
  it.each(targets)(
    '%s: image and cache bytes are the requests the proxy and the registry took per repository',
    async (target) => {
      const inputs = await readRunInputs({
        runDir: openRunDir(makeRunDir({ sizes: true, uploadRefs: true })),
        generatedAtMs: 0,
      });
      const trace = inputs.traces.find((t) => t.target === target)!;
      expect(trace.uploads.filter((upload) => upload.kind === 'unknown')).toEqual([]);
      const paths = new Set(
        trace.uploads.map((u) => `${u.method} ${new URL(u.url).pathname}${new URL(u.url).search}`),
      );
      // Upload-start POSTs share one path across targets and carry no body: the PUTs (unique upload URLs and
      // manifests) are the target's own.
      const mine = proxy.filter((line) => line.method === 'PUT' && paths.has(`${line.method} ${line.path}`));
      expect(mine).toHaveLength(trace.uploads.filter((upload) => upload.method === 'PUT').length);
      expect(trace.uploads.filter((u) => u.method !== 'PUT').every((u) => u.bytes === 0)).toBe(true);
      const proxyBytes = (repository: string) =>
        mine
          .filter((line) => repositoryOf(line.path) === repository)
          .reduce((sum, line) => sum + line.requestBytes, 0);
      const registryBytes = (repository: string) =>
        mine
          .filter(
            (line) =>
              repositoryOf(line.path) === repository && loggedWrites.has(`${line.method} ${line.path}`),
          )
          .reduce((sum, line) => sum + (storedBytes(line) ?? Number.NaN), 0);
      const traceBytes = (kind: string) =>
        trace.uploads.filter((u) => u.kind === kind).reduce((sum, u) => sum + (u.bytes ?? Number.NaN), 0);
      expect(new Set(mine.map((line) => repositoryOf(line.path)))).toEqual(
        new Set(['rocm/cache', `rocm/${target}`]),
      );
      expect(traceBytes('cache')).toBe(proxyBytes('rocm/cache'));
      expect(traceBytes('image')).toBe(proxyBytes(`rocm/${target}`));
      expect(traceBytes('cache')).toBe(registryBytes('rocm/cache'));
      expect(traceBytes('image')).toBe(registryBytes(`rocm/${target}`));
      expect(traceBytes('cache')).toBeGreaterThan(0);
    },
  );

  it('without uploadRefs (a run recorded before issue 35) every upload stays unknown', async () => {
    const inputs = await readRunInputs({
      runDir: openRunDir(makeRunDir({ sizes: true, uploadRefs: false })),
      generatedAtMs: 0,
    });
    const uploads = inputs.traces.flatMap((t) => t.uploads);
    expect(uploads.length).toBeGreaterThan(20);
    expect(uploads.every((upload) => upload.kind === 'unknown')).toBe(true);
  });
});
