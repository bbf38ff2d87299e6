// run.json's uploadRefs from a real `bake --print` (test/fixtures/buildkit-real/bake-print-two-targets.json, the bake
// whose `bake --push pytorch-wheel` gave trace-push-cache-max.jaeger.json), and what they do to that real trace: every
// upload is image or cache, and each side's bytes are what the trace's requests sent to that repository.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BakePrintSchema } from '../../../../../src/graph/bake-print-schema.js';
import { parseBuildkitTrace } from '../../../../../src/collect/index.js';
import { toUploadRefs } from '../../../../../src/run/harness/context/to-upload-refs.js';

const read = (name: string) =>
  readFileSync(new URL(`../../../../fixtures/buildkit-real/${name}`, import.meta.url), 'utf8');
const print = BakePrintSchema.parse(JSON.parse(read('bake-print-two-targets.json')));

describe('toUploadRefs on a real bake --print', () => {
  it('warm: the tags and the registry cache-to refs, as printed', () => {
    expect(
      toUploadRefs({
        print,
        targets: ['pytorch-wheel', 'pytorch'],
        liveNamespace: 'rocm',
        namespace: 'rocm',
        clearCacheTo: false,
      }),
    ).toEqual({
      pytorch: {
        image: ['127.0.0.1:5999/rocm/pytorch:gfx1201'],
        cache: ['127.0.0.1:5999/rocm/cache:pytorch-gfx1201'],
      },
      'pytorch-wheel': {
        image: ['127.0.0.1:5999/rocm/pytorch-wheel:gfx1201'],
        cache: ['127.0.0.1:5999/rocm/cache:pytorch-wheel-gfx1201'],
      },
    });
  });

  it('cold: moved into the run namespace, no cache refs (the cache export is cleared)', () => {
    expect(
      toUploadRefs({
        print,
        targets: ['pytorch'],
        liveNamespace: 'rocm',
        namespace: 'rocm-coldrun',
        clearCacheTo: true,
      }),
    ).toEqual({ pytorch: { image: ['127.0.0.1:5999/rocm-coldrun/pytorch:gfx1201'], cache: [] } });
  });

  it('an image output with names, a local cache export and a target the print lacks', () => {
    const refs = toUploadRefs({
      print: {
        target: {
          a: {
            output: [
              'type=image,"name=reg:5000/rocm/a:x,reg:5000/rocm/a:y",push=true',
              'type=local,dest=out',
            ],
            'cache-to': ['type=local,dest=/tmp/c', 'type=registry,ref=reg:5000/rocm/cache:a'],
          },
        },
      },
      targets: ['a', 'gone'],
      liveNamespace: 'rocm',
      namespace: 'rocm',
      clearCacheTo: false,
    });
    expect(refs).toEqual({
      a: { image: ['reg:5000/rocm/a:x', 'reg:5000/rocm/a:y'], cache: ['reg:5000/rocm/cache:a'] },
    });
  });
});

it('the refs split the real v0.32.2 trace into image and cache bytes, each what its repository received', () => {
  const refs = toUploadRefs({
    print,
    targets: ['pytorch-wheel'],
    liveNamespace: 'rocm',
    namespace: 'rocm',
    clearCacheTo: false,
  })['pytorch-wheel']!;
  const name = 'trace-push-cache-max.jaeger.json';
  const { trace } = parseBuildkitTrace(read(name), {
    source: name,
    target: 'pytorch-wheel',
    cacheRefs: refs.cache,
    imageRefs: refs.image,
  });
  // Independently: the inner `HTTP PUT|POST` spans' sizes, by the repository in their URL.
  const spans = (
    JSON.parse(read(name)) as {
      data: { spans: { operationName: string; tags: { key: string; value: unknown }[] }[] }[];
    }
  ).data.flatMap((t) => t.spans);
  const byRepository = new Map<string, number>();
  for (const span of spans.filter((s) => s.operationName === 'HTTP PUT' || s.operationName === 'HTTP POST')) {
    const tags = new Map(span.tags.map((tag) => [tag.key, tag.value]));
    const repository = /\/v2\/(.+?)\/(?:blobs|manifests)\//.exec(String(tags.get('url.full')))?.[1] ?? '';
    const bytes = Number(tags.get('http.request.header.content-length') ?? 0);
    byRepository.set(repository, (byRepository.get(repository) ?? 0) + bytes);
  }
  const sum = (kind: string) =>
    trace.uploads.filter((u) => u.kind === kind).reduce((total, u) => total + (u.bytes ?? 0), 0);
  expect(trace.uploads.filter((u) => u.kind === 'unknown')).toEqual([]);
  expect([...byRepository.keys()].sort()).toEqual(['rocm/cache', 'rocm/pytorch-wheel']);
  expect(sum('cache')).toBe(byRepository.get('rocm/cache'));
  expect(sum('image')).toBe(byRepository.get('rocm/pytorch-wheel'));
  expect(sum('cache')).toBeGreaterThan(4_000_000);
});
