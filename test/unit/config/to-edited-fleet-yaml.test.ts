import { describe, expect, it } from 'vitest';
import { toEditedFleetYaml } from '../../../src/config/to-edited-fleet-yaml.js';

// `costs --write-fleet` edits fleet.yaml's text in place: the changed values and nothing else.

const fleet = `# The fleet. link_mbps in MB/s.
arch: gfx1201
nodes:
  - name: forge
    builder: forge
    link_mbps: 112   # wired
    speed: 1.0
    node_exporter: http://forge:9100/metrics

  # behind WiFi
  - name: kiln
    builder: kiln
    link_mbps: 4.3 # measured 2026-11
    node_exporter: http://kiln:9100/metrics
  - { name: edge, builder: edge, link_mbps: 50, node_exporter: 'http://edge:9100/metrics' }
`;

/** The lines that differ, as [before, after] pairs (the texts must have as many lines, or one added). */
function changedLines(before: string, after: string): string[] {
  const a = before.split('\n');
  const b = after.split('\n');
  const changed: string[] = [];
  let [i, j] = [0, 0];
  while (i < a.length || j < b.length) {
    if (a[i] === b[j]) [i, j] = [i + 1, j + 1];
    else if (b[j + 1] === a[i]) changed.push(`+ ${b[j++]}`);
    else changed.push(`- ${a[i++]}`, `+ ${b[j++]}`);
  }
  return changed;
}

describe('toEditedFleetYaml', () => {
  it('replaces values in place: comments on the line, blank lines and quoting stay', () => {
    const edited = toEditedFleetYaml(
      fleet,
      [
        { node: 'kiln', key: 'link_mbps', value: 0.19 },
        { node: 'forge', key: 'speed', value: 1.3 },
      ],
      'fleet.yaml',
    );
    expect(changedLines(fleet, edited)).toEqual([
      '-     speed: 1.0',
      '+     speed: 1.3',
      '-     link_mbps: 4.3 # measured 2026-11',
      '+     link_mbps: 0.19 # measured 2026-11',
    ]);
  });

  it('adds a key the node lacks after its link_mbps, in block and in flow style', () => {
    const edited = toEditedFleetYaml(
      fleet,
      [
        { node: 'kiln', key: 'speed', value: 0.8 },
        { node: 'edge', key: 'speed', value: 2 },
      ],
      'fleet.yaml',
    );
    expect(changedLines(fleet, edited)).toEqual([
      '+     speed: 0.8',
      "-   - { name: edge, builder: edge, link_mbps: 50, node_exporter: 'http://edge:9100/metrics' }",
      "+   - { name: edge, builder: edge, link_mbps: 50, speed: 2, node_exporter: 'http://edge:9100/metrics' }",
    ]);
    expect(edited).toContain('    link_mbps: 4.3 # measured 2026-11\n    speed: 0.8\n');
  });

  it('refuses a node fleet.yaml does not have, naming it', () => {
    expect(() => toEditedFleetYaml(fleet, [{ node: 'anvil', key: 'speed', value: 2 }], 'f.yaml')).toThrow(
      /^f\.yaml: no node `anvil` under nodes/,
    );
  });
});
