import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeArtifacts } from '../../../../src/collect/write-artifacts.js';
import { parseArtifactLines, parseArtifacts, renderArtifacts } from '../../../../src/artifacts/index.js';
import { ArtifactError } from '../../../../src/shared/errors.js';

const dir = mkdtempSync(path.join(tmpdir(), 'rocm-perf-artifacts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('artifacts.txt', () => {
  it('round-trips wheels and images through the file', async () => {
    const artifacts = [
      { kind: 'wheel' as const, name: 'torch-2.9.0+rocm7.0-cp312-cp312-linux_x86_64.whl', sizeBytes: 1234 },
      { kind: 'wheel' as const, name: 'triton-3.5.0-cp312-cp312-linux_x86_64.whl', sizeBytes: 10 },
      { kind: 'image' as const, name: 'rocm/api:latest' },
    ];
    const file = path.join(dir, 'artifacts.txt');
    const text = await writeArtifacts({ path: file, artifacts });
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(parseArtifacts(text, file)).toEqual(artifacts);
  });

  it.each([
    ['wheel\tx.whl\t1\n', 'expected the header `# rocm-perf artifacts version 1`'],
    ['# rocm-perf artifacts version 1\nwheel\tx.whl\tmany\n', 'line 2: not an artifact line'],
    ['# rocm-perf artifacts version 1\nimage\tno-tag\n', 'line 2: not an artifact line'],
  ])('rejects %j naming the line', (text, message) => {
    expect(() => parseArtifacts(text)).toThrow(ArtifactError);
    expect(() => parseArtifacts(text)).toThrow(message);
  });

  it('keeps every good line when one is bad: the bad line is rejected alone, with its number', () => {
    const text =
      '# rocm-perf artifacts version 1\nimage\trocm/a:gfx1201\nimage rocm/b:gfx1201\n\n# a comment\nwheel\tc.whl\t12\n';
    expect(parseArtifactLines(text)).toEqual({
      artifacts: [
        { kind: 'image', name: 'rocm/a:gfx1201' },
        { kind: 'wheel', name: 'c.whl', sizeBytes: 12 },
      ],
      rejected: [
        {
          line: 3,
          reason:
            'not an artifact line: "image rocm/b:gfx1201" (expected `wheel<TAB>name.whl<TAB>bytes` or `image<TAB>repo:tag`)',
        },
      ],
    });
  });

  it('renders an empty list as the header alone', () => {
    expect(renderArtifacts([])).toBe('# rocm-perf artifacts version 1\n');
  });
});
