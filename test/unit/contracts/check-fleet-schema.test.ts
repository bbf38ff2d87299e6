import { describe, expect, it } from 'vitest';
import { renderFleetJsonSchema } from '../../../src/config/fleet-json-schema.js';
import { checkFleetSchema } from '../../../src/contracts/check-fleet-schema.js';
import { matching, readRepoFile } from './repo-files.js';

const fleetText = readRepoFile('fleet.yaml');
const schemaJsonText = readRepoFile('rocm-perf.schema.json');

function check(overrides: { fleetText?: string; schemaJsonText?: string | undefined } = {}) {
  return checkFleetSchema({
    fleetText: overrides.fleetText ?? fleetText,
    fleetPath: 'fleet.yaml',
    schemaJsonText: 'schemaJsonText' in overrides ? overrides.schemaJsonText : schemaJsonText,
    schemaJsonPath: 'rocm-perf.schema.json',
    generatedSchemaText: renderFleetJsonSchema(),
  });
}

describe('checkFleetSchema', () => {
  it('agrees on the shipped fleet.yaml and rocm-perf.schema.json', () => {
    expect(check().problems).toEqual([]);
  });

  it('names an unknown key in fleet.yaml at its line', () => {
    const text = fleetText.replace(
      '  key_prefix: rocm/{arch}\n',
      '  key_prefix: rocm/{arch}\n  keyprefix: rocm/gfx1201\n',
    );
    const result = check({ fleetText: text });
    expect(result.ok).toBe(false);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]?.message).toMatch(/keyprefix/);
    expect(result.problems[0]?.producer).toEqual({
      file: 'fleet.yaml',
      line: text.split('\n').indexOf('  keyprefix: rocm/gfx1201') + 1,
    });
    expect(result.problems[0]?.consumer).toEqual({ file: 'src/config/schema.ts', line: undefined });
  });

  it('names a hand-edited JSON schema at the first differing line', () => {
    const edited = schemaJsonText.replace(
      '"description": "GPU architecture (PERF_ARCH)."',
      '"description": "GPU arch."',
    );
    const result = check({ schemaJsonText: edited });
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]?.consumer).toEqual({
      file: 'rocm-perf.schema.json',
      line: edited.split('\n').findIndex((line) => line.includes('GPU arch.')) + 1,
    });
    expect(result.problems[0]?.message).toMatch(/Fix: run `npx tsx scripts\/generate-schema.ts`/);
  });

  it('names a missing JSON schema file', () => {
    expect(check({ schemaJsonText: undefined }).problems[0]?.message).toMatch(
      /rocm-perf.schema.json is missing/,
    );
  });

  it('names a $schema modeline that points elsewhere', () => {
    const result = check({
      fleetText: fleetText.replace('$schema=./rocm-perf.schema.json', '$schema=./old.schema.json'),
    });
    expect(result.problems).toEqual([
      {
        message: matching(/points at `\.\/old\.schema\.json`/),
        producer: { file: 'fleet.yaml', line: 1 },
        consumer: { file: 'rocm-perf.schema.json', line: undefined },
      },
    ]);
  });

  it('reports YAML syntax errors located', () => {
    const result = check({ fleetText: 'arch: [unclosed\n' });
    expect(result.problems[0]?.producer.file).toBe('fleet.yaml');
    expect(result.problems[0]?.message).toMatch(/YAML syntax/);
  });
});
