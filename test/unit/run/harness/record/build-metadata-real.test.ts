// bake `--metadata-file` and `--print` output of real buildx (fixtures README): pushes with attestations give an
// OCI index and no `containerimage.config.digest`; `buildx.build.warnings` sits beside the targets; provenance
// can be absent; a linked `target:` built in the same bake has a ref but no image.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildGraph } from '../../../../../src/graph/index.js';
import { BakePrintSchema } from '../../../../../src/graph/bake-print-schema.js';
import {
  readBuildMetadata,
  toImageArtifacts,
} from '../../../../../src/run/harness/record/read-build-metadata.js';
import { readRealFixture } from '../../../../helpers/read-real-fixture.js';

const file = (name: string) =>
  fileURLToPath(new URL(`../../../../fixtures/buildkit-real/${name}`, import.meta.url));

describe('readBuildMetadata on real metadata files', () => {
  it.each([
    [
      'metadata-push-oci-index.json',
      'pytorch-wheel',
      'forge/forge0/91n9gz13k7p2ooao69yj6oas2',
      'rocm/pytorch-wheel:gfx1201',
    ],
    [
      'metadata-old-pair-push.json',
      'pytorch-wheel',
      'p27old/p27old0/33hlnzb65s4xbrc5gfekhd69a',
      'rocm/pytorch-wheel:gfx1201',
    ],
    ['metadata-warnings.json', 'warns', 'p27/p270/kqdqzsgejpa7nvpq7zme194zt', 'rocm/warns:gfx1201'],
    [
      'metadata-no-provenance.json',
      'pytorch-wheel',
      'p27/p270/q7vscwbkhpddcrnyuq49ev9cp',
      'rocm/pytorch-wheel:gfx1201',
    ],
  ])('%s: the ref and the pushed image of %s', async (name, target, ref, image) => {
    const metadata = await readBuildMetadata(file(name), target);
    expect(metadata?.['buildx.build.ref']).toBe(ref);
    expect(metadata?.['containerimage.digest']).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(metadata).not.toHaveProperty('containerimage.config.digest');
    expect(toImageArtifacts(metadata ?? {})).toEqual([{ kind: 'image', name: image }]);
  });

  it('the linked target built in the same bake: a ref, no image', async () => {
    const metadata = await readBuildMetadata(file('metadata-two-targets-linked.json'), 'pytorch');
    expect(metadata?.['buildx.build.ref']).toBe('p27/p270/jjfgirrbe9o83pjct7r959858');
    expect(toImageArtifacts(metadata ?? {})).toEqual([]);
  });

  it('the warnings list beside the targets is not a target', async () => {
    expect(await readBuildMetadata(file('metadata-warnings.json'), 'buildx.build.warnings')).toBeUndefined();
  });
});

describe('bake --print of real buildx', () => {
  const print = BakePrintSchema.parse(JSON.parse(readRealFixture('bake-print-two-targets.json')));

  it('expands the default group (which lists the group `wheels`) and reads the target: link', () => {
    expect(buildGraph({ print, requested: ['default'], source: 'print' })).toEqual({
      graph: {
        targets: ['pytorch', 'pytorch-wheel'],
        deps: { pytorch: [], 'pytorch-wheel': ['pytorch'] },
        externalDeps: { pytorch: [], 'pytorch-wheel': [] },
      },
      errors: [],
    });
  });
});
