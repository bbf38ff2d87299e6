import { describe, expect, it } from 'vitest';
import {
  buildBakeArgs,
  collectErrorLine,
  pickFailedRecord,
  toHistoryId,
} from '../../../../src/run/executors/buildx.js';
import { quoteShell } from '../../../../src/run/executors/remote-host.js';

describe('buildBakeArgs', () => {
  const base = {
    builder: 'forge',
    target: 'triton-wheel',
    metadataFile: '/r/meta-triton-wheel.json',
    noCache: false,
    clearCacheTo: false,
    push: true,
  };
  it('warm: caches on, push, no overrides', () => {
    expect(buildBakeArgs(base)).toEqual([
      'bake',
      '--builder',
      'forge',
      '--metadata-file',
      '/r/meta-triton-wheel.json',
      '--progress=rawjson',
      '--push',
      'triton-wheel',
    ]);
  });
  it('cold: --no-cache, cache export cleared, own sccache prefix, bake file first', () => {
    expect(
      buildBakeArgs({
        ...base,
        bakeFile: '/repo/docker-bake.hcl',
        noCache: true,
        clearCacheTo: true,
        sccachePrefix: 'rocm/gfx1201-coldrun-x',
      }),
    ).toEqual([
      'bake',
      '-f',
      '/repo/docker-bake.hcl',
      '--builder',
      'forge',
      '--metadata-file',
      '/r/meta-triton-wheel.json',
      '--progress=rawjson',
      '--no-cache',
      '--set',
      '*.cache-to=',
      '--set',
      '*.args.SCCACHE_WEBDAV_KEY_PREFIX=rocm/gfx1201-coldrun-x',
      '--push',
      'triton-wheel',
    ]);
  });
});

describe('collectErrorLine', () => {
  it('keeps human stderr and vertex errors, drops plain status JSON, and keeps the last 12', () => {
    const tail: string[] = [];
    collectErrorLine('{"vertexes":[{"digest":"sha256:1","name":"[a 1/2] RUN make"}]}', tail);
    collectErrorLine(
      '{"vertexes":[{"digest":"sha256:2","error":"process \\"make\\" did not complete: exit code: 2"}]}',
      tail,
    );
    collectErrorLine('', tail);
    collectErrorLine('ERROR: target a: failed to solve', tail);
    expect(tail).toEqual([
      'process "make" did not complete: exit code: 2',
      'ERROR: target a: failed to solve',
    ]);
    for (let i = 0; i < 20; i += 1) collectErrorLine(`line ${i}`, tail);
    expect(tail).toHaveLength(12);
    expect(tail.at(-1)).toBe('line 19');
  });
});

describe('pickFailedRecord (history ls --format json of a failed bake)', () => {
  const line = (ref: string, createdAt: string, status = 'Error') =>
    JSON.stringify({ ref: `b/b0/${ref}`, name: 'x', status, created_at: createdAt, total_steps: 3 });
  const sinceMs = Date.parse('2026-03-14T09:30:00Z');

  it('takes the one error record created since the bake started, ignoring other statuses and noise', () => {
    const stdout = [
      line('new', '2026-03-14T09:30:02.5Z'),
      line('ok', '2026-03-14T09:30:03Z', 'Completed'),
      line('old', '2026-03-14T09:10:00Z'),
      'WARNING: not json',
    ].join('\n');
    expect(pickFailedRecord(stdout, { sinceMs })).toEqual({ ref: 'b/b0/new' });
  });

  it('allows for clock skew, but never guesses between several', () => {
    expect(pickFailedRecord(line('skewed', '2026-03-14T09:29:40Z'), { sinceMs })).toEqual({
      ref: 'b/b0/skewed',
    });
    const two = [line('a', '2026-03-14T09:30:01Z'), line('b', '2026-03-14T09:30:02Z')].join('\n');
    expect(pickFailedRecord(two, { sinceMs })).toMatchObject({
      reason: expect.stringContaining('2 failed') as unknown,
    });
    expect(pickFailedRecord(line('old', '2026-03-14T09:00:00Z'), { sinceMs })).toMatchObject({
      reason: expect.stringContaining('no failed build record') as unknown,
    });
  });
});

describe('small renderers', () => {
  it('quotes shell words', () => {
    expect(quoteShell("/var/log/it's.log")).toBe(`'/var/log/it'\\''s.log'`);
  });
  it('turns build refs into history ids', () => {
    expect(toHistoryId('fleet-a/fleet-a0/r7k3m2x9q1v8c4n6b5t0y2w1e')).toBe('r7k3m2x9q1v8c4n6b5t0y2w1e');
  });
});
