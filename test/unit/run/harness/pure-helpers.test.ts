import { describe, expect, it } from 'vitest';
import {
  buildBakeArgs,
  collectErrorLine,
  pickFailedRecord,
  toHistoryId,
} from '../../../../src/run/executors/buildx.js';
import { quoteShell } from '../../../../src/run/executors/remote-host.js';
import { buildRangeCommand } from '../../../../src/run/cache-logs/remote-log-files.js';
import { parseImageRef, renderImageRef, toNamespace } from '../../../../src/run/registry/image-ref.js';
import { parseAuthChallenge } from '../../../../src/run/registry/registry-client.js';
import { findAuthEntry } from '../../../../src/run/registry/read-docker-auth.js';
import { createRunStamp, createShortId } from '../../../../src/run/harness/context/run-stamp.js';

/** `20260820T100105Z-k3m9q2`: what run-stamp.ts documents. */
const RUN_STAMP_PATTERN = /^\d{8}T\d{6}Z-[0-9a-z]{6}$/;
import { toRunExitCode } from '../../../../src/run/harness/finalize/finalize-run.js';
import { toImageArtifacts } from '../../../../src/run/harness/record/read-build-metadata.js';

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

describe('image refs', () => {
  it.each([
    [
      'docker-image://registry.fleet.lan:5000/rocm/rocm-base:gfx1201',
      { host: 'registry.fleet.lan:5000', repository: 'rocm/rocm-base', reference: 'gfx1201' },
    ],
    ['localhost/a/b@sha256:abc', { host: 'localhost', repository: 'a/b', reference: 'sha256:abc' }],
    ['ubuntu:24.04', { host: 'docker.io', repository: 'library/ubuntu', reference: '24.04' }],
    ['10.0.0.1:5000/rocm/x', { host: '10.0.0.1:5000', repository: 'rocm/x', reference: 'latest' }],
  ])('parses %s', (text, expected) => {
    expect(parseImageRef(text)).toEqual(expected);
  });
  it('moves only the live namespace, and renders digests with @', () => {
    const ref = parseImageRef('reg:5000/rocm/pytorch:gfx1201');
    expect(renderImageRef(toNamespace(ref, { from: 'rocm', to: 'rocm-coldrun' }))).toBe(
      'reg:5000/rocm-coldrun/pytorch:gfx1201',
    );
    expect(
      renderImageRef(toNamespace(parseImageRef('reg:5000/other/x:1'), { from: 'rocm', to: 'rocm-coldrun' })),
    ).toBe('reg:5000/other/x:1');
    expect(renderImageRef(parseImageRef('reg:5000/a/b@sha256:ff'))).toBe('reg:5000/a/b@sha256:ff');
  });
});

describe('registry auth', () => {
  it('parses Bearer and Basic challenges', () => {
    expect(
      parseAuthChallenge(
        'Bearer realm="https://auth.example.com/token",service="reg.example.com",scope="repository:acme/api:pull"',
      ),
    ).toEqual({
      scheme: 'bearer',
      params: {
        realm: 'https://auth.example.com/token',
        service: 'reg.example.com',
        scope: 'repository:acme/api:pull',
      },
    });
    expect(parseAuthChallenge('Basic realm="Registry Realm"')).toEqual({
      scheme: 'basic',
      params: { realm: 'Registry Realm' },
    });
    expect(parseAuthChallenge('Negotiate abc')).toBeUndefined();
    expect(parseAuthChallenge(undefined)).toBeUndefined();
  });
  it('finds docker config credentials by host, in auth or username/password form', () => {
    const config = {
      auths: {
        'https://reg.example.com/v1/': { auth: Buffer.from('alice:s3:cret').toString('base64') },
        'other:5000': { username: 'bob', password: 'pw' },
      },
    };
    expect(findAuthEntry(config, 'reg.example.com')).toEqual({ username: 'alice', password: 's3:cret' });
    expect(findAuthEntry(config, 'other:5000')).toEqual({ username: 'bob', password: 'pw' });
    expect(findAuthEntry(config, 'nowhere')).toBeUndefined();
  });
});

describe('run stamps', () => {
  it('are a compact UTC time plus a short id', () => {
    expect(createRunStamp({ nowMs: Date.UTC(2026, 7, 20, 10, 1, 5, 750), id: 'k3m9q2' })).toBe(
      '20260820T100105Z-k3m9q2',
    );
    const id = createShortId(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]));
    expect(id).toMatch(/^[0-9a-z]{6}$/);
    expect(createRunStamp({ nowMs: 0, id })).toMatch(RUN_STAMP_PATTERN);
    expect(new Set(Array.from({ length: 200 }, () => createShortId())).size).toBe(200);
  });
});

describe('small renderers', () => {
  it('quotes shell words and builds byte-range reads', () => {
    expect(quoteShell("/var/log/it's.log")).toBe(`'/var/log/it'\\''s.log'`);
    expect(buildRangeCommand('/l.log', 10, 25)).toBe("tail -c +11 '/l.log' | head -c 15");
  });
  it('turns build refs into history ids', () => {
    expect(toHistoryId('fleet-a/fleet-a0/r7k3m2x9q1v8c4n6b5t0y2w1e')).toBe('r7k3m2x9q1v8c4n6b5t0y2w1e');
  });
  it('lists the published images as artifacts.txt entries', () => {
    expect(
      toImageArtifacts({
        'image.name': 'reg:5000/rocm/a:1, reg:5000/rocm/a:latest',
        'containerimage.digest': 'sha256:f',
      }),
    ).toEqual([
      { kind: 'image', name: 'rocm/a:1' },
      { kind: 'image', name: 'rocm/a:latest' },
    ]);
    expect(toImageArtifacts({})).toEqual([]);
  });
  it('maps outcomes to exit codes', () => {
    const ok = { status: 'ok' as const, node: 'a', startedAtMs: 0, finishedAtMs: 1 };
    expect(toRunExitCode({ targets: { x: ok } }, false)).toBe(0);
    expect(
      toRunExitCode(
        { targets: { x: ok, y: { status: 'skipped', node: 'a', reason: 'dependency x failed' } } },
        false,
      ),
    ).toBe(1);
    expect(toRunExitCode({ targets: { x: ok } }, true)).toBe(130);
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
