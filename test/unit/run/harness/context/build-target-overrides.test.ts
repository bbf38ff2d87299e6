import { describe, expect, it } from 'vitest';
import { buildTargetOverrides } from '../../../../../src/run/harness/context/build-target-overrides.js';
import type { BakePrint } from '../../../../../src/graph/index.js';

const print: BakePrint = {
  target: {
    pytorch: { tags: ['reg:5000/rocm/pytorch:gfx1201'] },
    'vllm-wheel': {
      contexts: {
        'rocm-base': 'docker-image://reg:5000/rocm/rocm-base:gfx1201',
        pytorch: 'target:pytorch',
        hub: 'docker-image://ubuntu:24.04',
      },
      tags: ['reg:5000/rocm/vllm-wheel:gfx1201'],
      'cache-from': [{ type: 'registry', ref: 'reg:5000/rocm/cache:vllm-wheel-gfx1201' }],
      'cache-to': ['type=registry,ref=reg:5000/rocm/cache:vllm-wheel-gfx1201,mode=max'],
    },
  },
};

describe('buildTargetOverrides', () => {
  it('warm (live namespace): only turns target: links into the published images', () => {
    expect(
      buildTargetOverrides({
        print,
        target: 'vllm-wheel',
        liveNamespace: 'rocm',
        namespace: 'rocm',
        clearCacheTo: false,
      }),
    ).toEqual(['vllm-wheel.contexts.pytorch=docker-image://reg:5000/rocm/pytorch:gfx1201']);
  });

  it('cold: moves tags, cache-from and image contexts into the run namespace and leaves the cleared cache-to alone', () => {
    expect(
      buildTargetOverrides({
        print,
        target: 'vllm-wheel',
        liveNamespace: 'rocm',
        namespace: 'rocm-coldrun',
        clearCacheTo: true,
      }),
    ).toEqual([
      'vllm-wheel.tags=reg:5000/rocm-coldrun/vllm-wheel:gfx1201',
      'vllm-wheel.cache-from=type=registry,ref=reg:5000/rocm-coldrun/cache:vllm-wheel-gfx1201',
      'vllm-wheel.contexts.rocm-base=docker-image://reg:5000/rocm-coldrun/rocm-base:gfx1201',
      'vllm-wheel.contexts.pytorch=docker-image://reg:5000/rocm-coldrun/pytorch:gfx1201',
    ]);
  });

  it('another namespace with the export kept rewrites cache-to too', () => {
    expect(
      buildTargetOverrides({
        print,
        target: 'vllm-wheel',
        liveNamespace: 'rocm',
        namespace: 'rocm-b',
        clearCacheTo: false,
      }),
    ).toContain('vllm-wheel.cache-to=type=registry,mode=max,ref=reg:5000/rocm-b/cache:vllm-wheel-gfx1201');
    expect(
      buildTargetOverrides({
        print,
        target: 'unknown',
        liveNamespace: 'rocm',
        namespace: 'rocm-b',
        clearCacheTo: false,
      }),
    ).toEqual([]);
  });
});
