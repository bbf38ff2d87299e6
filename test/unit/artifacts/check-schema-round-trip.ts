import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import { buildSchemaExample, countVariants } from './build-schema-example.js';
import { at, type ContractProblem } from '../../../src/contracts/contract-result.js';

// The runtime half of pair 4: generated documents survive the writer's encoding (JSON) and the reader's parse
// with the very schema object the module exports, and the version constant is the schema's version literal.

export interface RoundTripOptions {
  fileName: string;
  modulePath: string;
  schema: z.ZodType;
  /** The exported version constant of the module. */
  version: unknown;
  versionExport: string;
  /** The writer's encoding; JSON by default (one JSON document, or one per line for .jsonl). */
  encode?: (value: unknown) => string;
}

export interface RoundTripOutcome {
  problems: ContractProblem[];
  notes: string[];
}

function readVersionLiteral(parsed: unknown): unknown {
  return parsed !== null && typeof parsed === 'object'
    ? (parsed as { version?: unknown }).version
    : undefined;
}

// Pure: push every variant through encode → JSON.parse → schema.safeParse and compare.
export function checkSchemaRoundTrip({
  fileName,
  modulePath,
  schema,
  version,
  versionExport,
  encode = (value) => JSON.stringify(value),
}: RoundTripOptions): RoundTripOutcome {
  const where = at(modulePath);
  const problems: ContractProblem[] = [];
  const variants = countVariants(schema);
  let proven = 0;
  for (let variant = 0; variant < variants; variant += 1) {
    const example = buildSchemaExample(schema, variant);
    const written = schema.safeParse(example.value);
    if (example.unsupported.length > 0 || !written.success) continue;
    const read = schema.safeParse(JSON.parse(encode(written.data)) as unknown);
    if (!read.success || !isDeepStrictEqual(read.data, written.data)) {
      const why = read.success
        ? 'it reads back different'
        : read.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
      problems.push({
        message: `${fileName}: a valid document does not survive write → read (${why}). Fix: keep the schema to JSON types.`,
        producer: where,
        consumer: where,
      });
      continue;
    }
    if (readVersionLiteral(read.data) !== version) {
      problems.push({
        message: `${fileName}: the schema's version literal is ${String(readVersionLiteral(read.data))} but ${versionExport} is ${String(version)}. Fix: build the schema from ${versionExport}.`,
        producer: where,
        consumer: where,
      });
    }
    proven += 1;
  }
  const notes =
    proven === 0
      ? [`${fileName}: no example document could be generated; round trip not proven`]
      : [`${fileName}: ${proven}/${variants} generated documents round-tripped through ${modulePath}`];
  return { problems, notes };
}
