import { describe, expect, it } from 'vitest';
import { parseProvenance } from '../../../src/explain/parse-provenance.js';
import {
  findFirstMiss,
  listOwnSteps,
  parseStatusVertices,
} from '../../../src/explain/parse-status-vertices.js';
import { read } from './fixture-evidence.js';

// app's streams (real, BuildKit v0.32.2 + buildx v0.36.1) also hold lib's vertices, as buildx merges them: in
// 07-dep labelled `[lib 1/3] COPY src/lib /src`, in 06-base labelled with app's name (`[app 1/3] COPY src/lib /src`).

describe('parseStatusVertices on a real two-target stream', () => {
  const status = parseStatusVertices(read('06-base-status-app.jsonl'));

  it('reads every vertex once, with BuildKit’s own cached flag', () => {
    expect(status.skippedLines).toBe(0);
    const copy = status.vertices.find((v) => v.name === '[app stage-0 2/4] COPY src/app /src');
    expect(copy?.cached).toBe(false);
    expect(status.vertices.find((v) => v.name === '[app 1/3] COPY src/lib /src')?.cached).toBe(true);
  });

  it('without provenance: a step labelled with another target is that target’s', () => {
    const dep = parseStatusVertices(read('07-dep-status-app.jsonl'));
    const own = listOwnSteps(dep, { otherTargets: new Set(['lib']) }).map((v) => v.name);
    expect(own).not.toContain('[lib 1/3] COPY src/lib /src');
    expect(own.filter((name) => name.startsWith('[lib '))).toEqual([]);
    expect(own).toContain('[app stage-0 2/4] COPY src/app /src');
  });

  it('with mode=max provenance: the digests of the target’s own Dockerfile decide, whatever the label', () => {
    const meta = JSON.parse(read('06-base-meta-app.json')) as { app: Record<string, unknown> };
    const p = parseProvenance(meta.app['buildx.build.provenance']);
    const ownDigests = new Set(
      [...p.llb!.digestToStep]
        .filter(([, id]) => p.llb!.steps.get(id)?.location?.file === 'app.Dockerfile')
        .map(([d]) => d),
    );
    const own = listOwnSteps(status, { otherTargets: new Set(['lib']), ownDigests }).map((v) => v.name);
    expect(own).not.toContain('[app 1/3] COPY src/lib /src'); // lib's COPY, labelled with app's name
    expect(own).toEqual([
      '[app stage-0 1/4] COPY --from=lib /out/lib.txt /deps/lib.txt',
      '[app stage-0 2/4] COPY src/app /src',
      expect.stringMatching(/^\[app stage-0 3\/4\] RUN /) as string,
    ]);
    expect(findFirstMiss(listOwnSteps(status, { otherTargets: new Set(['lib']), ownDigests }))?.name).toBe(
      '[app stage-0 1/4] COPY --from=lib /out/lib.txt /deps/lib.txt',
    );
  });

  it('a truncated last line is counted, not guessed at', () => {
    const text = read('02-warm-status-lib.jsonl');
    expect(parseStatusVertices(`${text}{"vertexes":[{"dig`).skippedLines).toBe(1);
  });
});
