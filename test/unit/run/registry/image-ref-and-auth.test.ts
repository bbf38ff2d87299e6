import { describe, expect, it } from 'vitest';
import { parseImageRef, renderImageRef, toNamespace } from '../../../../src/run/registry/image-ref.js';
import { parseAuthChallenge } from '../../../../src/run/registry/registry-client.js';
import { findAuthEntry } from '../../../../src/run/registry/read-docker-auth.js';

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
