import { describe, expect, it } from 'vitest';
import { parseMaterialRef, parseProvenance } from '../../../src/advise/parse-provenance.js';

// Material URIs as BuildKit writes them: RefToPURL in util/purl/image.go (moby/buildkit v0.17.3, read from the Go
// module cache): a tag becomes the purl version, a digest a `digest=` qualifier, the host's `:` is %3A. The first
// case is the real one in fixtures/runs/gfx1201-warm/meta-pytorch.json.

const SHA = `sha256:${'c'.repeat(64)}`;

describe('parseMaterialRef', () => {
  it.each([
    [
      'pkg:docker/10.213.182.1%3A5000/rocm/rocm-base@gfx1201?platform=linux%2Famd64',
      '10.213.182.1:5000/rocm/rocm-base:gfx1201',
      false,
    ],
    [
      `pkg:docker/10.213.182.1%3A5000/rocm/rocm-base@gfx1201?digest=${encodeURIComponent(SHA)}&platform=linux%2Famd64`,
      '10.213.182.1:5000/rocm/rocm-base:gfx1201',
      true,
    ],
    [
      `pkg:docker/10.213.182.1%3A5000/rocm/rocm-base?digest=${encodeURIComponent(SHA)}&platform=linux%2Famd64`,
      '10.213.182.1:5000/rocm/rocm-base',
      true,
    ],
    [`pkg:docker/rocm/base@${encodeURIComponent(SHA)}`, `rocm/base@${SHA}`, true],
    ['pkg:docker/ubuntu@22.04?platform=linux%2Famd64', 'ubuntu:22.04', false],
  ])('%s', (uri, ref, pinned) => {
    expect(parseMaterialRef(uri)).toEqual({ ref, pinned });
  });

  it('is not a docker purl: nothing', () => {
    expect(parseMaterialRef('https://example.org/context.tar')).toBeUndefined();
  });
});

describe('parseProvenance', () => {
  it('an untrusted file that is not JSON, or holds no provenance for the target, gives nothing, never a throw', () => {
    expect(parseProvenance('{"pytorch":', 'pytorch')).toBeUndefined();
    expect(parseProvenance('{"pytorch":{"buildx.build.ref":"x"}}', 'pytorch')).toBeUndefined();
    expect(parseProvenance('[1,2]', 'pytorch')).toBeUndefined();
  });

  it('keeps only build args with string values and materials with a sha256', () => {
    const text = JSON.stringify({
      t: {
        'buildx.build.provenance': {
          invocation: { parameters: { args: { 'build-arg:A': '1', 'build-arg:B': 2, 'context:x': 'y' } } },
          materials: [
            { uri: 'pkg:docker/a@1' },
            { uri: 'pkg:docker/b@2', digest: { sha256: 'd'.repeat(64) } },
          ],
        },
      },
    });
    expect(parseProvenance(text, 't')).toEqual({
      args: { A: '1' },
      materials: [{ ref: 'b:2', digest: `sha256:${'d'.repeat(64)}`, pinned: false }],
    });
  });
});
