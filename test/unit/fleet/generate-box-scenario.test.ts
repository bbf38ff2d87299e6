import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildGraph } from '../../../src/graph/index.js';
import { BakePrintSchema } from '../../../src/graph/bake-print-schema.js';
import { findCycles } from '../../../src/graph/build-graph.js';
import { parseTargetCosts } from '../../../src/config/parse-target-costs.js';
import { generateBoxScenario } from '../../fleet/generate-box-scenario.js';

const scenarioCostsText = readFileSync(
  path.resolve(import.meta.dirname, '../../../.builders/target-costs'),
  'utf8',
);

describe('generateBoxScenario (a 24-node fleet and a 100-target graph from the scenario’s spread)', () => {
  const generated = generateBoxScenario({ nodeCount: 24, targetCount: 100, scenarioCostsText });

  it('draws 24 nodes with the scenario’s uplinks, some WiFi-like, speeds 0.6–1.3, unique names', () => {
    expect(generated.nodes).toHaveLength(24);
    expect(new Set(generated.nodes.map((node) => node.name)).size).toBe(24);
    expect(generated.nodes.filter((node) => node.scenarioLinkMbps === 4.3)).toHaveLength(4);
    for (const node of generated.nodes) {
      expect(node.name).toMatch(/^[a-z]+-\d\d$/);
      expect(generated.speeds[node.name]).toBeGreaterThanOrEqual(0.6);
      expect(generated.speeds[node.name]).toBeLessThanOrEqual(1.3);
    }
  });

  it('makes a bake print the product parses into an acyclic graph of 100 targets, each with costs', () => {
    const print = BakePrintSchema.parse(JSON.parse(JSON.stringify(generated.print)));
    const { graph, errors: graphErrors } = buildGraph({
      print,
      requested: generated.runTargets,
      source: 'generated print',
    });
    expect(graphErrors).toEqual([]);
    expect(findCycles(graph!.targets, graph!.deps)).toEqual([]);
    expect(graph!.targets).toHaveLength(100);
    expect([...graph!.targets].sort()).toEqual([...generated.targets].sort());
    for (const deps of Object.values(graph!.deps)) expect(deps.length).toBeLessThanOrEqual(2);
    const { costs, errors } = parseTargetCosts(generated.costsText, 'generated');
    expect(errors).toEqual([]);
    for (const target of generated.targets) {
      expect(costs.get(target)?.buildSeconds, target).toBeGreaterThan(0);
      expect(costs.get(target)?.cacheBytes, target).toBeGreaterThan(0);
    }
  });

  it('is the same for the same seed', () => {
    expect(generateBoxScenario({ nodeCount: 24, targetCount: 100, scenarioCostsText })).toEqual(generated);
  });
});
