// Builder identity from real `buildx du --verbose` and `buildx inspect` output (buildx v0.36.1 on BuildKit v0.32.2
// prints `Key:   value` with spaces, v0.23.0 on v0.17.3 with tabs): test/fixtures/buildkit-explain/capture-make.sh.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CommandOutcome } from '../../../../../src/run/executors/buildx.js';
import { readBuilderIdentities } from '../../../../../src/run/harness/preflight/read-builder-identity.js';
import { parseBuildxDu } from '../../../../../src/run/executors/parse-buildx-du.js';
import type { FleetNode } from '../../../../../src/config/schema.js';

const read = (name: string) =>
  readFileSync(new URL(`../../../../fixtures/buildkit-explain/${name}`, import.meta.url), 'utf8');
const ok = (stdout: string): CommandOutcome => ({
  ok: true,
  exitCode: 0,
  command: 'docker buildx',
  errorTail: '',
  stdout,
});

/** The record lines of a du listing, read without the parser: `ID:` lines and `Created at:` values. */
function countOutside(text: string) {
  const lines = text.split('\n');
  const created = lines
    .filter((line) => line.startsWith('Created at:'))
    .map((line) => line.slice('Created at:'.length).trim())
    .sort();
  return { ids: lines.filter((line) => line.startsWith('ID:')).length, oldest: created[0]! };
}

describe('parseBuildxDu', () => {
  it.each(['v0.32.2', 'v0.17.3'])('real buildx du --verbose on BuildKit %s', (release) => {
    const text = read(`capture-du-verbose.${release}.txt`);
    const outside = countOutside(text);
    const parsed = parseBuildxDu(text);
    expect(parsed.cacheRecords).toBe(outside.ids);
    expect(parsed.cacheRecords).toBe(8);
    // `Total:\t\t5.136MB` (go-units HumanSize: decimal units).
    expect(parsed.cacheBytes).toBe(5.136e6);
    // `2026-12-06 19:03:48.38199512 +0000 UTC` → ISO, to the millisecond.
    const [date, time] = outside.oldest.split(' ');
    expect(parsed.oldestRecordCreatedAt).toBe(`${date}T${time!.slice(0, 12)}Z`);
  });

  it('an empty build cache: no records, no oldest', () => {
    expect(parseBuildxDu('Reclaimable:\t0B\nTotal:\t\t0B\n')).toEqual({
      cacheRecords: 0,
      cacheBytes: 0,
      oldestRecordCreatedAt: null,
    });
  });
});

describe('readBuilderIdentities', () => {
  const node = (name: string) => ({ name, builder: `${name}-b` }) as FleetNode;

  it('takes the BuildKit version from inspect and the cache from du, per node', async () => {
    const identities = await readBuilderIdentities([node('kiln')], {
      inspect: () => Promise.resolve(ok(read('capture-inspect.v0.17.3.txt'))),
      du: () => Promise.resolve(ok(read('capture-du-verbose.v0.17.3.txt'))),
    });
    expect(identities.get('kiln')).toMatchObject({
      buildkitVersion: 'v0.17.3',
      cacheRecords: 8,
      cacheBytes: 5.136e6,
    });
  });

  it('a builder du cannot read: nulls and the error, not a guess', async () => {
    const identities = await readBuilderIdentities([node('forge')], {
      inspect: () => Promise.resolve(ok(read('capture-inspect.v0.32.2.txt'))),
      du: () =>
        Promise.resolve({
          ok: false,
          exitCode: 1,
          command: 'docker buildx du --builder forge-b --verbose',
          errorTail: 'ERROR: no builder "forge-b" found',
          stdout: '',
        }),
    });
    expect(identities.get('forge')).toEqual({
      buildkitVersion: 'v0.32.2',
      cacheRecords: null,
      cacheBytes: null,
      oldestRecordCreatedAt: null,
      error: '`docker buildx du --builder forge-b --verbose` failed: ERROR: no builder "forge-b" found',
    });
  });
});
