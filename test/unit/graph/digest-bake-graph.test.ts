import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { digestBakeGraph, type BakePrint } from '../../../src/graph/index.js';
import { BakePrintSchema } from '../../../src/graph/bake-print-schema.js';

// The bake graph's digests (run.json `bake`) on the shipped print (.builders/bake-print.gfx1201.json, the output of
// `docker buildx bake --print` for the gfx1201 wheels): what changes them and what does not. Which targets an edit
// reaches is worked out here from the print's `target:` contexts, not by the product.

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const shipped = () =>
  BakePrintSchema.parse(
    JSON.parse(readFileSync(path.join(repoRoot, '.builders/bake-print.gfx1201.json'), 'utf8')),
  );
const clone = (print: BakePrint): BakePrint => structuredClone(print);

function dependentsOf(print: BakePrint, name: string): Set<string> {
  const reached = new Set([name]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [target, entry] of Object.entries(print.target)) {
      const links = Object.values(entry.contexts ?? {}).filter((v) => v.startsWith('target:'));
      if (!reached.has(target) && links.some((v) => reached.has(v.slice('target:'.length)))) {
        reached.add(target);
        grew = true;
      }
    }
  }
  return reached;
}

describe('digestBakeGraph', () => {
  it('gives each planned target a SHA-256 and the graph one over them; key order does not matter', () => {
    const print = shipped();
    const names = Object.keys(print.target);
    const digest = digestBakeGraph(print, names);
    expect(Object.keys(digest.targets).sort()).toEqual([...names].sort());
    for (const value of [digest.sha256, ...Object.values(digest.targets)])
      expect(value).toMatch(/^[0-9a-f]{64}$/);
    const reorder = (value: unknown): unknown =>
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(
            Object.entries(value)
              .reverse()
              .map(([key, entry]) => [key, reorder(entry)]),
          )
        : value;
    expect(digestBakeGraph(reorder(print) as BakePrint, [...names].reverse())).toEqual(digest);
    // Not a digest of nothing: two targets with different entries never share one.
    expect(new Set(Object.values(digest.targets)).size).toBe(names.length);
    expect(digest.sha256).not.toBe(createHash('sha256').update('{}').digest('hex'));
  });

  it('an edit to a target changes its digest and every target built on it, and no other', () => {
    const print = shipped();
    const names = Object.keys(print.target);
    const before = digestBakeGraph(print, names);
    for (const edited of ['pytorch', 'triton-wheel', 'aiter-wheel']) {
      const changed = clone(print);
      changed.target[edited]!.args = { ...changed.target[edited]!.args, EXTRA: '1' };
      const after = digestBakeGraph(changed, names);
      const reached = dependentsOf(print, edited);
      for (const name of names)
        expect(after.targets[name] !== before.targets[name], `${edited} → ${name}`).toBe(reached.has(name));
      expect(after.sha256).not.toBe(before.sha256);
    }
    expect(dependentsOf(print, 'pytorch').size).toBeGreaterThan(2);
  });

  it('covers a dependency that is not planned: its edit still reaches the planned targets built on it', () => {
    const print = shipped();
    const planned = Object.keys(print.target).filter((name) => name !== 'pytorch');
    const before = digestBakeGraph(print, planned);
    const changed = clone(print);
    changed.target.pytorch!.dockerfile = 'other.Dockerfile';
    const after = digestBakeGraph(changed, planned);
    expect(Object.keys(after.targets)).not.toContain('pytorch');
    const reached = [...dependentsOf(print, 'pytorch')].filter((name) => name !== 'pytorch');
    expect(reached.length).toBeGreaterThan(0);
    for (const name of reached) expect(after.targets[name]).not.toBe(before.targets[name]);
  });
});
