import { describe, expect, it } from 'vitest';
import { toImageArtifacts } from '../../../../../src/run/harness/record/read-build-metadata.js';

describe('toImageArtifacts', () => {
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
});
