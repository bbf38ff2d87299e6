import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readSourceTree } from '../../helpers/source-tree/read-source-tree.js';
import { repoRoot } from '../contracts/repo-files.js';
import { buildSchemaExample, countVariants } from './build-schema-example.js';
import { checkArtifactSchemas } from './check-artifact-schemas.js';
import { checkSchemaRoundTrip } from './check-schema-round-trip.js';

// Each artifact's exported schema survives its own encoding: generated documents (one per union, enum and nullable
// branch) go through JSON.stringify → JSON.parse → safeParse and come back equal, with the exported version.

const Outcome = z.discriminatedUnion('status', [
  z.strictObject({ status: z.literal('ok'), at: z.number() }),
  z.strictObject({ status: z.literal('failed'), error: z.string() }),
  z.strictObject({ status: z.literal('skipped') }),
]);

describe('buildSchemaExample', () => {
  it('walks every branch of a union across variants', () => {
    const schema = z.strictObject({
      version: z.literal(3),
      outcome: Outcome,
      note: z.string().nullable(),
      tags: z.array(z.enum(['a', 'b'])),
      pair: z.tuple([z.number(), z.boolean()]),
    });
    expect(countVariants(schema)).toBe(3);
    expect([0, 1, 2].map((variant) => buildSchemaExample(schema, variant).value)).toEqual([
      { version: 3, outcome: { status: 'ok', at: 1 }, note: 'example-0', tags: ['a'], pair: [1, true] },
      {
        version: 3,
        outcome: { status: 'failed', error: 'example-1' },
        note: null,
        tags: ['b'],
        pair: [2, false],
      },
      { version: 3, outcome: { status: 'skipped' }, note: 'example-2', tags: ['a'], pair: [3, true] },
    ]);
  });

  it('lists the zod types it cannot build', () => {
    expect(buildSchemaExample(z.strictObject({ when: z.date(), big: z.bigint() })).unsupported).toEqual([
      'date',
      'bigint',
    ]);
  });
});

describe('checkSchemaRoundTrip', () => {
  const sources = readSourceTree({ rootDir: repoRoot, dir: 'src', extensions: ['.ts'] });
  const { modules } = checkArtifactSchemas({ sources });

  it.each(modules.map((module) => [module.fileName, module] as const))(
    'round-trips generated %s documents through the schema its module exports',
    async (fileName, module) => {
      const exports = (await import(path.join(repoRoot, module.modulePath))) as Record<string, unknown>;
      const schema = exports[module.schemaExport];
      if (!(schema instanceof z.ZodType))
        throw new Error(`${module.modulePath} exports no ${module.schemaExport}`);
      const version = exports[module.versionExport];
      expect(version).toBe(module.version);
      const outcome = checkSchemaRoundTrip({ ...module, schema, version });
      expect(outcome.problems).toEqual([]);
      expect(outcome.notes[0]).toMatch(
        new RegExp(`^${fileName}: (\\d+)/\\1 generated documents round-tripped`),
      );
    },
  );

  it('found all five artifacts', () => {
    expect(modules.map((module) => module.fileName).sort()).toEqual([
      '.runs-index.jsonl',
      'data.json',
      'plan.json',
      'run.json',
      'samples.jsonl',
    ]);
  });

  it('catches a schema that does not survive JSON (a transform whose output the reader refuses)', () => {
    const schema = z.strictObject({
      version: z.literal(1),
      name: z.string().transform((text) => text.length),
    });
    const outcome = checkSchemaRoundTrip({
      fileName: 'x.json',
      modulePath: 'm.ts',
      schema,
      version: 1,
      versionExport: 'X_VERSION',
    });
    expect(outcome.problems[0]?.message).toMatch(/^x\.json: a valid document does not survive write → read/);
  });

  it('catches a version constant that is not the schema literal', () => {
    const schema = z.strictObject({ version: z.literal(1) });
    const outcome = checkSchemaRoundTrip({
      fileName: 'x.json',
      modulePath: 'm.ts',
      schema,
      version: 2,
      versionExport: 'X_VERSION',
    });
    expect(outcome.problems[0]?.message).toBe(
      "x.json: the schema's version literal is 1 but X_VERSION is 2. Fix: build the schema from X_VERSION.",
    );
  });
});
