import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adviseRunDir } from '../../../src/advise/index.js';
import { parseProvenance } from '../../../src/advise/parse-provenance.js';
import { loadRunModel } from '../../../src/report/index.js';
import { repoRoot } from '../../helpers/run-built-cli.js';
import { traceFigures } from '../../helpers/sample-run-facts.js';
import { openRunDir } from '../../../src/run-dir/open-run-dir.js';

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
    // The material as BuildKit names it: pkg:docker/<host, %3A for the colon>/<repository>@<tag>?platform=…
    const [, host, repository, tag] = /^pkg:docker\/([^/]+)\/([^@]+)@([^?]+)\?/.exec(
      provenance.materials[0]!.uri,
    )!;
    expect(repository).toBe('rocm/rocm-base');
    expect(fact.materials).toEqual([
      {
        ref: `${decodeURIComponent(host!)}/${repository}:${tag}`,
        digest: `sha256:${provenance.materials[0]!.digest.sha256}`,
        pinned: false,
      },
    ]);
  });

  it('finds every layer the image and the cache export both pushed, as the traces and the registry log show', async () => {
    const loaded = await loadRunModel({ runDir: openRunDir(dir), nowMs: Date.now() });
    const advice = await adviseRunDir({
      runDir: loaded.runDir,
      model: loaded.model,
      runFile: loaded.runFile,
      plan: loaded.plan,
      runs: 5,
    });
    expect(advice.map((entry) => entry.kind).sort()).toEqual(['double-cache-push', 'link-bound-export']);
    const push = advice.find((entry) => entry.kind === 'double-cache-push');
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
    // pytorch's 2 067 779-byte layer went to rocm/pytorch and to rocm/cache (trace and Zot's own log).
    const pytorch = scanTracePushes(path.join(dir, 'trace-pytorch.json'));
    const layer = 'sha256:a03cb6845f43fada0e19bff6d6493be770bb57e49cc48cc2f9c1e786d3bcff0b';
    expect(pytorch.get(layer)?.sort()).toEqual(['rocm/cache', 'rocm/pytorch']);
    const zotPutsOf = (digest: string) =>
      readFileSync(path.join(dir, 'zot.jsonl'), 'utf8')
        .split('\n')
        .filter(
          (line) => line.includes(`digest=sha256%3A${digest.slice(7)}`) && line.includes('"method":"PUT"'),
        );
    expect(zotPutsOf(layer)).toHaveLength(2);
    // The example the evidence names is one of pytorch's twice-pushed blobs, written twice in Zot's log too.
    const registryLine = push!.evidence.find((line) => line.startsWith('registry log: '));
    const example = /\(e\.g\. (sha256:[0-9a-f]{12})… into rocm\/cache and rocm\/pytorch\)$/.exec(
      registryLine ?? '',
    )?.[1];
    expect(registryLine).toContain(
      `registry log: ${blobs} of these ${blobs} blobs were written at least twice`,
    );
    const exampleDigest = [...pytorch.keys()].find((digest) => digest.startsWith(example ?? '-'));
    expect(pytorch.get(exampleDigest!)?.sort()).toEqual(['rocm/cache', 'rocm/pytorch']);
    expect(zotPutsOf(exampleDigest!)).toHaveLength(2);
    expect(push!.savingSeconds).toBeGreaterThan(0);
    expect(push!.savingSeconds).toBeLessThan(loaded.model.summary.makespanSeconds!);
    // The export that outlasts its build: every target whose trace's upload union exceeds its steps' extent.
    const linkBound = advice.find((entry) => entry.kind === 'link-bound-export')!;
    const run = JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')) as {
      targets: Record<string, { node: string }>;
    };
    const slowExports = Object.keys(run.targets).filter((target) => {
      const figures = traceFigures(dir, target);
      return figures.uploadSeconds > figures.buildSeconds;
    });
    // Advised only where a replay saves something (onnxruntime-wheel, all cached, saves nothing on any node).
    expect(linkBound.targets).toEqual(['apex-wheel']);
    expect(slowExports).toContain('apex-wheel');
    const apex = traceFigures(dir, 'apex-wheel');
    expect(linkBound.nodes).toEqual([run.targets['apex-wheel']!.node]);
    expect(linkBound.evidence[0]).toBe(
      `data.json targets[apex-wheel]: upload ${apex.uploadSeconds.toFixed(2)}s against build ${apex.buildSeconds.toFixed(2)}s on ${run.targets['apex-wheel']!.node}`,
    );
  });

  it('a PUT the registry refused and the client retried is not a second push (the cold sample: apex-wheel)', async () => {
    const cold = path.join(repoRoot, 'fixtures/runs/gfx1201-cold');
    const json = JSON.parse(readFileSync(path.join(cold, 'trace-apex-wheel.json'), 'utf8')) as {
      data: { spans: JaegerSpan[] }[];
    };
    const statuses = json.data
      .flatMap((trace) => trace.spans)
      .filter((span) => span.operationName === 'HTTP PUT')
      .map((span) => ({
        url: String(span.tags.find((t) => t.key === 'url.full' || t.key === 'http.url')?.value ?? ''),
        status: Number(span.tags.find((t) => /status_code$/.test(t.key))?.value),
      }))
      .filter((put) => put.url.includes('digest=sha256%3A175c072cdaa6'));
    expect(statuses.map((put) => put.status).sort()).toEqual([201, 500]);
    const loaded = await loadRunModel({ runDir: openRunDir(cold), nowMs: Date.now() });
    const advice = await adviseRunDir({
      runDir: loaded.runDir,
      model: loaded.model,
      runFile: loaded.runFile,
      plan: loaded.plan,
      runs: 5,
    });
    expect(advice).toEqual([]);
  });
});
