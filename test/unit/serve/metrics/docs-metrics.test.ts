import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { METRIC_FAMILIES } from '../../../../src/serve/metrics/metric-catalog.js';

// docs/metrics.md lists every series serve exports, with exactly its labels, and no series it does not export.

const doc = readFileSync(path.resolve(import.meta.dirname, '../../../../docs/metrics.md'), 'utf8');
const rows = new Map(
  [...doc.matchAll(/^\| `(rocm_perf_[a-z_]+)` \| ([^|]+) \|/gm)].map((m) => [
    m[1]!,
    m[2]!.trim() === '(none)' ? [] : m[2]!.split(',').map((label) => label.trim()),
  ]),
);

describe('docs/metrics.md', () => {
  it('lists every exported series with its labels, and nothing else', () => {
    expect(Object.fromEntries(rows)).toEqual(
      Object.fromEntries(METRIC_FAMILIES.map((family) => [family.name, [...family.labels]])),
    );
  });
});
