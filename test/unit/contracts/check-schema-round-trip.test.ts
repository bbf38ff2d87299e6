import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildSchemaExample, countVariants } from '../../../src/contracts/build-schema-example.js';
import { checkSchemaRoundTrip } from '../../../src/contracts/check-schema-round-trip.js';
import { DataFileSchema, DATA_VERSION } from '../../../src/report/data-file.js';
import { RunFileSchema, RUN_VERSION } from '../../../src/run/run-file.js';

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
  it.each([
    ['run.json', RunFileSchema, RUN_VERSION, 'RUN_VERSION'],
    ['data.json', DataFileSchema, DATA_VERSION, 'DATA_VERSION'],
  ] as const)(
    'round-trips generated %s documents through the shared schema',
    (fileName, schema, version, versionExport) => {
      const outcome = checkSchemaRoundTrip({ fileName, modulePath: 'm.ts', schema, version, versionExport });
      expect(outcome.problems).toEqual([]);
      expect(outcome.notes[0]).toMatch(
        new RegExp(`^${fileName}: (\\d+)/\\1 generated documents round-tripped`),
      );
    },
  );

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
