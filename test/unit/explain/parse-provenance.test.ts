import { describe, expect, it } from 'vitest';
import { parseProvenance } from '../../../src/explain/parse-provenance.js';
import { read } from './fixture-evidence.js';

// why-capture's real captures (capture-README.md), BuildKit v0.32.2: the metadata file's SLSA v0.2 predicate (FOO=2)
// and a later build's record attachment in SLSA v1 (FOO=3), of the same Dockerfile.

describe('parseProvenance', () => {
  const v02 = parseProvenance(
    (JSON.parse(read('capture-meta-2.v0.32.2.json')) as { app: Record<string, unknown> }).app[
      'buildx.build.provenance'
    ],
  );
  const v1 = parseProvenance(JSON.parse(read('capture-attachment-slsa1.v0.32.2.json')));

  it('SLSA v0.2 (the metadata file): args, the Dockerfile, the LLB joined to its lines', () => {
    expect(v02.buildArgs).toEqual({ FOO: '2' });
    expect(v02.entryPoint).toBe('Dockerfile');
    const run = [...v02.llb!.steps.values()].find((s) => s.kind === 'exec')!;
    expect(run.location).toEqual({
      file: 'Dockerfile',
      line: 5,
      text: 'RUN echo "foo=$FOO" && cat /src/file.txt > /out.txt',
    });
    expect(run.env).toContain('FOO=2');
    expect(v02.llb!.digestToStep.size).toBe(v02.llb!.steps.size);
  });

  it('SLSA v1 (a build record’s attachment) gives the same parts from its own places', () => {
    expect(v1.buildArgs).toEqual({ FOO: '3' });
    expect(v1.entryPoint).toBe('Dockerfile');
    const lines = (p: typeof v1) =>
      [...p.llb!.steps.values()].flatMap((s) => (s.location ? [s.location.text] : []));
    expect(lines(v1)).toEqual(lines(v02));
    expect([...v1.llb!.steps.values()].find((s) => s.kind === 'exec')?.env).toContain('FOO=3');
  });

  it('a predicate of neither shape is refused (zod), never read as “nothing changed”', () => {
    expect(() => parseProvenance({ materials: 'none' })).toThrow();
  });
});
