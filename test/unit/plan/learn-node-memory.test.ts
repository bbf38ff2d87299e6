import { describe, expect, it } from 'vitest';
import { learnNodeMemory, renderMemoryFinding } from '../../../src/plan/learn-node-memory.js';
import { toEditedFleetYaml } from '../../../src/config/to-edited-fleet-yaml.js';

const GiB = 2 ** 30;

describe('learnNodeMemory', () => {
  it('suggests memory_gb for a node without one: the least any run saw, rounded down to 0.1 GiB', () => {
    const findings = learnNodeMemory({
      observations: [
        { node: 'strix', bytes: 15.68 * GiB },
        { node: 'strix', bytes: 15.61 * GiB },
        { node: 'kiln', bytes: 64 * GiB },
      ],
      nodes: [{ name: 'strix' }, { name: 'kiln', memoryBytes: 32 * GiB }, { name: 'forge' }],
    });
    expect(findings.map(({ node, suggestedGb, runs }) => ({ node, suggestedGb, runs }))).toEqual([
      { node: 'strix', suggestedGb: 15.6, runs: 2 },
      { node: 'kiln', suggestedGb: undefined, runs: 1 },
    ]);
    expect(findings.map(renderMemoryFinding)).toEqual([
      'strix: memory_gb not set → 15.6 (MemTotal 15.6 GiB over 2 runs)',
      'kiln: memory_gb 32, the runs saw 64 GiB over 1 run; kept: set in fleet.yaml',
    ]);
  });

  it('--write-fleet adds memory_gb after the node’s link_mbps, comments kept', () => {
    const text =
      'nodes:\n  - name: strix # the big one\n    builder: strix\n    link_mbps: 900\n    node_exporter: http://s:9100/metrics\n';
    expect(toEditedFleetYaml(text, [{ node: 'strix', key: 'memory_gb', value: 15.6 }], 'fleet.yaml')).toBe(
      'nodes:\n  - name: strix # the big one\n    builder: strix\n    link_mbps: 900\n    memory_gb: 15.6\n    node_exporter: http://s:9100/metrics\n',
    );
  });
});
