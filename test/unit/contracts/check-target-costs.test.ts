import { describe, expect, it } from 'vitest';
import { checkTargetCosts, isPushingTarget } from '../../../src/contracts/check-target-costs.js';
import { readRepoFile } from './repo-files.js';

const costsPath = '.builders/target-costs';
const printPath = '.builders/bake-print.gfx1201.json';
const costsText = readRepoFile(costsPath);
const printText = readRepoFile(printPath);
const requested = ['wheels', 'pytorch'];

function check(costs: string, print = printText) {
  return checkTargetCosts({ costsText: costs, costsPath, printText: print, printPath, requested });
}

function lineOf(text: string, needle: string): number {
  return text.split('\n').findIndex((line) => line.startsWith(needle)) + 1;
}

describe('checkTargetCosts', () => {
  it('agrees on the shipped files', () => {
    const result = check(costsText);
    expect(result.problems).toEqual([]);
    expect(result).toMatchObject({ pair: 'target-costs', ok: true, skipped: false });
    expect(result.notes[0]).toBe('13 planned targets, 13 costed');
  });

  it('names a dropped cache line with both files', () => {
    const result = check(costsText.replace(/^cache triton-wheel .*\n/m, ''));
    expect(result.ok).toBe(false);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]?.message).toMatch(
      /`triton-wheel` is planned but has no `cache triton-wheel <bytes>` line/,
    );
    expect(result.problems[0]?.producer).toEqual({ file: costsPath, line: undefined });
    expect(result.problems[0]?.consumer).toEqual({
      file: printPath,
      line: lineOf(printText, '    "triton-wheel": {'),
    });
  });

  it('names a dropped build line', () => {
    const result = check(costsText.replace(/^build apex-wheel .*\n/m, ''));
    expect(result.problems.map((problem) => problem.message)).toEqual([
      expect.stringMatching(/no `build apex-wheel <seconds>` line/),
    ]);
  });

  it('finds stale lines for a target that no longer exists, at their lines', () => {
    const text = `${costsText}build old-wheel 60\nwarm-build old-wheel 5\ncache old-wheel 1000000\n`;
    const result = check(text);
    const lines = text.split('\n');
    expect(result.problems.map((problem) => [problem.message.slice(0, 32), problem.producer.line])).toEqual([
      ['stale line for `old-wheel`: no s', lines.indexOf('build old-wheel 60') + 1],
      ['stale line for `old-wheel`: no s', lines.indexOf('warm-build old-wheel 5') + 1],
      ['stale line for `old-wheel`: no s', lines.indexOf('cache old-wheel 1000000') + 1],
    ]);
    expect(result.problems[0]?.consumer.file).toBe(printPath);
  });

  it('finds a renamed target as stale plus missing', () => {
    const result = check(costsText.replaceAll('vllm-wheel', 'vllm'));
    expect(result.problems).toHaveLength(4);
    expect(
      result.problems.filter((problem) => problem.message.startsWith('stale line for `vllm`')),
    ).toHaveLength(2);
  });

  it.each([
    [
      'zero build seconds',
      /^build torchaudio-wheel .*$/m,
      'build torchaudio-wheel 0',
      /build torchaudio-wheel 0: a build of under 1 s/,
    ],
    [
      'a zero-byte export for a pushing target',
      /^cache deepspeed-wheel .*$/m,
      'cache deepspeed-wheel 0',
      /`deepspeed-wheel` pushes .* cannot be 0 bytes/,
    ],
    [
      'an export written in GB instead of bytes',
      /^cache pytorch .*$/m,
      'cache pytorch 12',
      /cache pytorch 12: .* write bytes \(not MB\/GB\)/,
    ],
  ])('refuses %s', (_name, pattern, replacement, message) => {
    const text = costsText.replace(pattern, replacement);
    const result = check(text);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]?.message).toMatch(message);
    expect(result.problems[0]?.producer).toEqual({ file: costsPath, line: lineOf(text, replacement) });
  });

  it('accepts a zero-byte cache for a target that pushes nothing', () => {
    const print = JSON.parse(printText) as { target: Record<string, Record<string, unknown>> };
    const apex = print.target['apex-wheel'] ?? {};
    apex.output = [{ type: 'docker' }];
    delete apex['cache-to'];
    expect(
      check(costsText.replace(/^cache apex-wheel .*$/m, 'cache apex-wheel 0'), JSON.stringify(print, null, 2))
        .problems,
    ).toEqual([]);
  });

  it("passes the parser's own line errors through, located", () => {
    const result = check(`${costsText}bild x 1\n`);
    expect(result.problems[0]?.message).toMatch(/cannot read `bild x 1`/);
    expect(result.problems[0]?.producer.line).toBe(costsText.split('\n').length);
  });

  it('reports an unreadable bake print instead of throwing', () => {
    expect(check(costsText, '{"target": 3}').problems[0]?.message).toMatch(/not a bake print: target:/);
    expect(check(costsText, 'nope').problems[0]?.message).toMatch(/not JSON/);
  });
});

describe('isPushingTarget', () => {
  it.each([
    [{ output: [{ type: 'image', push: 'true' }] }, true],
    [{ output: ['type=registry'] }, true],
    [{ 'cache-to': ['type=registry,ref=r/cache:x,mode=max'] }, true],
    [{ 'cache-to': ['type=inline'], output: [{ type: 'docker' }] }, false],
    [{}, false],
  ])('%j → %s', (target, expected) => {
    expect(isPushingTarget(target)).toBe(expected);
  });
});
