// BuildKit's own step usage from a metadata file's provenance, held to the Go types of BuildKit v0.32.2 through a
// fixture CONSTRUCTED from them (test/fixtures/buildkit-constructed/README.md; no cgroup v2 builder here records one).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseProvenanceUsage } from '../../../../src/collect/buildkit/parse-provenance-usage.js';

const metadata = JSON.parse(
  readFileSync(
    new URL(
      '../../../fixtures/buildkit-constructed/metadata-provenance-resource-usage.json',
      import.meta.url,
    ),
    'utf8',
  ),
) as Record<string, Record<string, unknown>>;
const RUN_VERTEX = 'sha256:8a1d3f5e7c9b2a4d6f8e0c2b4a6d8f0e2c4b6a8d0f2e4c6b8a0d2f4e6c8b0a11';

describe('parseProvenanceUsage (SLSA v0.2, constructed from BuildKit’s types)', () => {
  it('maps the sampled step to its vertex digest: last CPU and IO counters, largest peak, pids and OOM kills', () => {
    const result = parseProvenanceUsage(metadata);
    expect(result.ok).toBe(true);
    if (!result.ok || !result.usage) throw new Error('no usage');
    expect([...result.usage.steps.keys()]).toEqual([RUN_VERTEX]);
    expect(result.usage.steps.get(RUN_VERTEX)).toEqual({
      cpuSeconds: 3.9,
      memoryPeakBytes: 964000000,
      ioReadBytes: 2097152,
      ioWriteBytes: 8388608,
      pidsPeak: 9,
      oomEvents: 1,
    });
    expect(result.usage.memoryTotalBytes).toBe(16777216000);
  });

  it('reads SLSA v1 the same (buildDefinition.internalParameters.buildConfig, runDetails.metadata.buildkit_metadata)', () => {
    const v02 = metadata['buildx.build.provenance']!;
    const v1 = {
      'buildx.build.provenance': {
        buildDefinition: {
          buildType: 'https://github.com/moby/buildkit/blob/master/docs/attestations/slsa-definitions.md',
          internalParameters: { buildConfig: v02.buildConfig },
        },
        runDetails: {
          metadata: {
            buildkit_metadata: (v02.metadata as Record<string, unknown>)[
              'https://mobyproject.org/buildkit@v1#metadata'
            ],
          },
        },
      },
    };
    const result = parseProvenanceUsage(v1);
    expect(result.ok && result.usage?.steps.get(RUN_VERTEX)?.cpuSeconds).toBe(3.9);
  });

  it('no provenance, or mode=min (no resourceUsage): no usage, not an error', () => {
    expect(parseProvenanceUsage({ 'containerimage.digest': 'sha256:22' })).toEqual({
      ok: true,
      usage: undefined,
    });
    const config = metadata['buildx.build.provenance']!.buildConfig as {
      llbDefinition: Record<string, unknown>[];
    };
    const stripped = {
      'buildx.build.provenance': {
        buildConfig: {
          ...config,
          llbDefinition: config.llbDefinition.map(({ resourceUsage: _drop, ...step }) => step),
        },
      },
    };
    expect(parseProvenanceUsage(stripped)).toEqual({ ok: true, usage: undefined });
  });

  it('a field of the wrong type names its key', () => {
    const broken = structuredClone(metadata);
    const steps = (
      broken['buildx.build.provenance']!.buildConfig as {
        llbDefinition: { resourceUsage?: { samples: { cpuStat: { usageNanos: unknown } }[] } }[];
      }
    ).llbDefinition;
    steps[1]!.resourceUsage!.samples[0]!.cpuStat.usageNanos = '1200000000';
    const result = parseProvenanceUsage(broken);
    expect(result).toEqual({
      ok: false,
      key: 'buildx.build.provenance.buildConfig.llbDefinition.1.resourceUsage.samples.0.cpuStat.usageNanos',
      message: expect.stringMatching(/expected number/) as string,
    });
  });
});
