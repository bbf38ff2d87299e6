import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildGraph,
  listTargetLinks,
  orderTopologically,
  parseComposable,
  type BakePrint,
} from '../../../src/graph/index.js';
import { BakePrintSchema } from '../../../src/graph/bake-print-schema.js';
import { findCycles } from '../../../src/graph/build-graph.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

function printOf(targets: Record<string, Record<string, string>>, group?: BakePrint['group']): BakePrint {
  const target = Object.fromEntries(
    Object.entries(targets).map(([name, contexts]) => [name, { context: '.', contexts }]),
  );
  return BakePrintSchema.parse({ group, target });
}

const base = 'docker-image://registry.fleet.lan:5000/rocm/rocm-base:gfx1201';

describe('parseComposable', () => {
  it.each([
    [
      'object form (buildx ≥ 0.19)',
      { type: 'registry', ref: 'r:5000/rocm/cache:pytorch-gfx1201', mode: 'max' },
      { type: 'registry', ref: 'r:5000/rocm/cache:pytorch-gfx1201', mode: 'max' },
    ],
    [
      'CSV form (buildx < 0.19)',
      'type=registry,ref=r:5000/rocm/cache:pytorch-gfx1201,mode=max',
      { type: 'registry', ref: 'r:5000/rocm/cache:pytorch-gfx1201', mode: 'max' },
    ],
    [
      'CSV with a quoted comma',
      'type=image,"name=r/a:1,r/b:1",push=true',
      { type: 'image', name: 'r/a:1,r/b:1', push: 'true' },
    ],
    ['a bare ref', 'r:5000/rocm/cache:x', { type: 'registry', ref: 'r:5000/rocm/cache:x' }],
  ])('reads the %s', (_label, entry, expected) => {
    expect(parseComposable(entry)).toEqual(expected);
  });

  it('accepts both forms in one print', () => {
    const print = BakePrintSchema.parse({
      target: {
        a: { 'cache-to': ['type=registry,ref=r/c:a,mode=max'], output: [{ type: 'image', push: 'true' }] },
      },
    });
    expect(print.target.a!['cache-to']!.map(parseComposable)).toEqual([
      { type: 'registry', ref: 'r/c:a', mode: 'max' },
    ]);
    expect(print.target.a!.output!.map(parseComposable)).toEqual([{ type: 'image', push: 'true' }]);
  });
});

describe('target links', () => {
  it('treats only `target:` contexts as in-run dependencies, sorted', () => {
    expect(
      listTargetLinks({ contexts: { rocm: base, z: 'target:zeta', a: 'target:alpha', src: '../src' } }),
    ).toEqual(['alpha', 'zeta']);
    expect(listTargetLinks({})).toEqual([]);
  });

  it('keeps links to requested targets as deps and the rest as external deps', () => {
    const print = printOf({
      pytorch: { 'rocm-base': base },
      wheel: { pytorch: 'target:pytorch' },
      other: {},
    });
    expect(buildGraph({ print, requested: ['wheel', 'pytorch'], source: 'p.json' })).toEqual({
      graph: {
        targets: ['pytorch', 'wheel'],
        deps: { pytorch: [], wheel: ['pytorch'] },
        externalDeps: { pytorch: [], wheel: [] },
      },
      errors: [],
    });
    expect(buildGraph({ print, requested: ['wheel'], source: 'p.json' }).graph).toEqual({
      targets: ['wheel'],
      deps: { wheel: [] },
      externalDeps: { wheel: ['pytorch'] },
    });
  });

  it('expands groups, nested groups and `all`', () => {
    const print = printOf(
      { a: {}, b: {}, c: {} },
      { wheels: { targets: ['a', 'inner'] }, inner: { targets: ['b'] } },
    );
    expect(buildGraph({ print, requested: ['wheels'], source: 's' }).graph?.targets).toEqual(['a', 'b']);
    expect(buildGraph({ print, requested: ['all'], source: 's' }).graph?.targets).toEqual(['a', 'b', 'c']);
  });
});

describe('graph errors', () => {
  it('lists every unknown requested target, with the known names', () => {
    const print = printOf({ a: {}, b: {} }, { g: { targets: ['a', 'ghost'] } });
    const result = buildGraph({ print, requested: ['nope', 'g'], source: 'bake.json' });
    expect(result.graph).toBeUndefined();
    expect(result.errors).toEqual([
      'bake.json: unknown target(s): nope, ghost (in group g). Fix: use one of a, b, g, or `all`.',
    ]);
  });

  it('names a context that links to an undefined target', () => {
    const result = buildGraph({
      print: printOf({ a: { dep: 'target:missing' } }),
      requested: ['a'],
      source: 'bake.json',
    });
    expect(result.errors).toEqual([
      'bake.json: target a: context links to unknown target `missing`. Fix: define it or remove the link.',
    ]);
  });

  it('reports every cycle, including a self-link', () => {
    const print = printOf({
      a: { x: 'target:b' },
      b: { x: 'target:c' },
      c: { x: 'target:a' },
      d: { self: 'target:d' },
      e: {},
    });
    const result = buildGraph({ print, requested: ['e'], source: 'bake.json' });
    expect(result.graph).toBeUndefined();
    expect(result.errors).toEqual([
      'bake.json: dependency cycle: a -> b -> c -> a. Fix: break one of these target: links.',
      'bake.json: dependency cycle: d -> d. Fix: break one of these target: links.',
    ]);
  });

  it('findCycles finds none in a DAG', () => {
    expect(findCycles(['a', 'b', 'c'], { b: ['a'], c: ['a', 'b'] })).toEqual([]);
  });
});

describe('orderTopologically', () => {
  it('puts dependencies first and breaks ties by name', () => {
    const graph = {
      targets: ['a', 'b', 'c', 'd'],
      deps: { a: ['d'], b: [], c: ['b'], d: [] },
      externalDeps: {},
    };
    expect(orderTopologically(graph)).toEqual(['b', 'c', 'd', 'a']);
  });
});

describe('the shipped bake print', () => {
  it('gives the gfx1201 graph: every wheel after pytorch, vllm after triton, rocm-base from the registry', async () => {
    const raw: unknown = JSON.parse(
      await readFile(path.join(repoRoot, '.builders/bake-print.gfx1201.json'), 'utf8'),
    );
    const { graph, errors } = buildGraph({
      print: BakePrintSchema.parse(raw),
      requested: ['wheels', 'pytorch'],
      source: 'print',
    });
    expect(errors).toEqual([]);
    expect(graph!.targets).toHaveLength(13);
    expect(graph!.deps['vllm-wheel']).toEqual(['pytorch', 'triton-wheel']);
    expect(graph!.deps['onnxruntime-wheel']).toEqual([]);
    expect(graph!.deps.pytorch).toEqual([]);
    expect(Object.values(graph!.externalDeps).flat()).toEqual([]);
  });
});
