import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adviseRunDir } from '../../../src/advise/index.js';
import { parseProvenance } from '../../../src/advise/parse-provenance.js';
import { loadRunModel } from '../../../src/report/index.js';
import { repoRoot } from '../../helpers/run-built-cli.js';

// The advisor on the recorded warm sample (fixtures/runs/gfx1201-warm: a real box run, BuildKit v0.32 with
// buildx bake, provenance mode=max in meta-<target>.json, Jaeger traces from `buildx history`, Zot's session log).
// The expectations are computed here from the raw files, by code that shares nothing with the product's readers.

const dir = path.join(repoRoot, 'fixtures/runs/gfx1201-warm');

interface JaegerSpan {
  operationName: string;
  tags: { key: string; value: string | number }[];
}

/** Every successful blob PUT of a trace: digest → repositories, read straight off the span tags. */
function scanTracePushes(file: string): Map<string, string[]> {
  const json = JSON.parse(readFileSync(file, 'utf8')) as { data: { spans: JaegerSpan[] }[] };
  const pushes = new Map<string, string[]>();
  for (const span of json.data.flatMap((trace) => trace.spans)) {
    if (!span.operationName.startsWith('HTTP PUT')) continue;
    const tag = (key: string) => span.tags.find((t) => t.key === key)?.value;
    const url = String(tag('url.full') ?? tag('http.url') ?? '');
    const status = Number(tag('http.response.status_code') ?? tag('http.status_code'));
    const match = /\/v2\/(.+)\/blobs\/uploads\/.*[?&]digest=sha256%3A([0-9a-f]{64})/.exec(url);
    if (!match || status < 200 || status >= 300) continue;
    const digest = `sha256:${match[2]}`;
    pushes.set(digest, [...(pushes.get(digest) ?? []), match[1]!]);
  }
  return pushes;
}

describe('advise on the recorded warm run', () => {
  it('reads build args and input images from the real provenance as the file holds them', () => {
    const text = readFileSync(path.join(dir, 'meta-pytorch.json'), 'utf8');
    const raw = JSON.parse(text) as Record<string, Record<string, Record<string, unknown>>>;
    const provenance = raw.pytorch!['buildx.build.provenance']! as {
      invocation: { parameters: { args: Record<string, string> } };
      materials: { uri: string; digest: { sha256: string } }[];
    };
    const fact = parseProvenance(text, 'pytorch')!;
    const args = Object.entries(provenance.invocation.parameters.args).filter(([k]) =>
      k.startsWith('build-arg:'),
    );
    expect(Object.keys(fact.args).sort()).toEqual(args.map(([k]) => k.slice('build-arg:'.length)).sort());
    expect(fact.args.GFX_ARCH).toBe('gfx1201');
    expect(fact.materials).toEqual([
      {
        ref: '10.213.182.1:5000/rocm/rocm-base:gfx1201',
        digest: `sha256:${provenance.materials[0]!.digest.sha256}`,
        pinned: false,
      },
    ]);
  });

  it('finds every layer the image and the cache export both pushed, as the traces and the registry log show', async () => {
    const loaded = await loadRunModel({ dir, nowMs: Date.now() });
    const advice = await adviseRunDir({
      dir,
      model: loaded.model,
      runFile: loaded.runFile,
      plan: loaded.plan,
      runs: 5,
    });
    expect(advice.map((entry) => entry.kind)).toEqual(['double-cache-push']);
    const [push] = advice;
    // Independent count: digests PUT more than once within one target's trace.
    const twice = new Map<string, number>();
    for (const name of readdirSync(dir).filter((n) => /^trace-.+\.json$/.test(n))) {
      const target = /^trace-(.+)\.json$/.exec(name)![1]!;
      const count = [...scanTracePushes(path.join(dir, name)).values()].filter(
        (repos) => repos.length > 1,
      ).length;
      if (count > 0) twice.set(target, count);
    }
    expect([...push!.targets].sort()).toEqual([...twice.keys()].sort());
    const blobs = [...twice.values()].reduce((sum, n) => sum + n, 0);
    expect(push!.evidence[0]).toMatch(new RegExp(`^${twice.size} target\\(s\\) pushed ${blobs} blob\\(s\\)`));
    // pytorch's 2 067 767-byte layer went to rocm/pytorch and to rocm/cache (trace and Zot's own log).
    const pytorch = scanTracePushes(path.join(dir, 'trace-pytorch.json'));
    const layer = 'sha256:23e90cc95d181385b9c621887ff8c7007b7bb374e0b9996a44797bec1f460277';
    expect(pytorch.get(layer)?.sort()).toEqual(['rocm/cache', 'rocm/pytorch']);
    const zotPuts = readFileSync(path.join(dir, 'zot.jsonl'), 'utf8')
      .split('\n')
      .filter(
        (line) => line.includes(`digest=sha256%3A${layer.slice(7)}`) && line.includes('"method":"PUT"'),
      );
    expect(zotPuts).toHaveLength(2);
    expect(push!.evidence).toContain(
      `registry log: ${blobs} of these ${blobs} blobs were written at least twice (e.g. ${layer.slice(0, 19)}… into rocm/pytorch and rocm/cache)`,
    );
    expect(push!.savingSeconds).toBeGreaterThan(0);
    expect(push!.savingSeconds).toBeLessThan(loaded.model.summary.makespanSeconds!);
  });

  it('a PUT the registry refused and the client retried is not a second push (the cold sample: onnxruntime-wheel)', async () => {
    const cold = path.join(repoRoot, 'fixtures/runs/gfx1201-cold');
    const json = JSON.parse(readFileSync(path.join(cold, 'trace-onnxruntime-wheel.json'), 'utf8')) as {
      data: { spans: JaegerSpan[] }[];
    };
    const statuses = json.data
      .flatMap((trace) => trace.spans)
      .filter((span) => span.operationName === 'HTTP PUT')
      .map((span) => ({
        url: String(span.tags.find((t) => t.key === 'url.full' || t.key === 'http.url')?.value ?? ''),
        status: Number(span.tags.find((t) => /status_code$/.test(t.key))?.value),
      }))
      .filter((put) => put.url.includes('digest=sha256%3A6a565095820d'));
    expect(statuses.map((put) => put.status).sort()).toEqual([201, 500]);
    const loaded = await loadRunModel({ dir: cold, nowMs: Date.now() });
    const advice = await adviseRunDir({
      dir: cold,
      model: loaded.model,
      runFile: loaded.runFile,
      plan: loaded.plan,
      runs: 5,
    });
    expect(advice).toEqual([]);
  });
});
