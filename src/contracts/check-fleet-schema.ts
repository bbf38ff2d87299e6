import path from 'node:path';
import { parseYamlWithLines, type ParsedYaml, validateConfig } from '../config/index.js';
import { at, createContractResult, type ContractProblem, type ContractResult } from './contract-result.js';

// Pair 5b: fleet.yaml and rocm-perf.schema.json (producers) vs the zod schema in src/config/schema.ts (consumer).

export interface CheckFleetSchemaOptions {
  fleetText: string;
  fleetPath: string;
  /** The shipped rocm-perf.schema.json, or undefined when the file is missing. */
  schemaJsonText: string | undefined;
  schemaJsonPath: string;
  /** renderFleetJsonSchema() of the running program: what the zod schema generates now. */
  generatedSchemaText: string;
  /** fleet.yaml already parsed with parseYamlWithLines (saves a second parse). */
  parsedFleet?: ParsedYaml | undefined;
}

const ZOD_SCHEMA_FILE = 'src/config/schema.ts';
const REGENERATE = 'npx tsx scripts/generate-schema.ts';

function firstDifferentLine(a: string, b: string): number {
  const left = a.split('\n');
  const right = b.split('\n');
  const index = left.findIndex((line, i) => line !== right[i]);
  return (index < 0 ? Math.min(left.length, right.length) : index) + 1;
}

function checkJsonSchemaDrift(options: CheckFleetSchemaOptions): ContractProblem[] {
  const { schemaJsonText, schemaJsonPath, generatedSchemaText } = options;
  if (schemaJsonText === undefined) {
    return [
      {
        message: `${schemaJsonPath} is missing. Fix: run \`${REGENERATE}\` and commit it.`,
        producer: at(ZOD_SCHEMA_FILE),
        consumer: at(schemaJsonPath),
      },
    ];
  }
  if (schemaJsonText === generatedSchemaText) return [];
  const line = firstDifferentLine(schemaJsonText, generatedSchemaText);
  const expected = generatedSchemaText.split('\n')[line - 1] ?? '(end of file)';
  return [
    {
      message: `${schemaJsonPath} differs from the schema the zod definition generates, first at line ${line} (expected \`${expected.trim()}\`). Fix: run \`${REGENERATE}\`.`,
      producer: at(ZOD_SCHEMA_FILE),
      consumer: at(schemaJsonPath, line),
    },
  ];
}

function lineOfLocated(message: string, file: string): number | undefined {
  const match = new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(\\d+)`).exec(message);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

function checkFleetValidates(options: CheckFleetSchemaOptions): ContractProblem[] {
  const { fleetText, fleetPath } = options;
  const parsed = options.parsedFleet ?? parseYamlWithLines(fleetText, fleetPath);
  const errors =
    parsed.errors.length > 0
      ? parsed.errors
      : validateConfig({ raw: parsed.value, source: fleetPath, lineOf: parsed.lineOf }).errors;
  return errors.map((message) => ({
    message,
    producer: at(fleetPath, lineOfLocated(message, fleetPath)),
    consumer: at(ZOD_SCHEMA_FILE),
  }));
}

/** The editor's `$schema` reference (modeline or key) must name the shipped schema file. */
function checkSchemaReference(options: CheckFleetSchemaOptions): ContractProblem[] {
  const lines = options.fleetText.split(/\r?\n/);
  const index = lines.findIndex((line) => /^\s*(#\s*yaml-language-server:\s*)?\$schema\s*[:=]/.test(line));
  if (index < 0) return [];
  const reference = /\$schema\s*[:=]\s*['"]?([^'"\s]+)/.exec(lines[index] ?? '')?.[1];
  if (reference === undefined || /^[a-z]+:\/\//.test(reference)) return [];
  const resolved = path.resolve(path.dirname(options.fleetPath), reference);
  if (resolved === path.resolve(options.schemaJsonPath)) return [];
  return [
    {
      message: `$schema points at \`${reference}\`, not the shipped ${path.basename(options.schemaJsonPath)}. Fix: point it at ${path.relative(path.dirname(options.fleetPath), options.schemaJsonPath) || options.schemaJsonPath}.`,
      producer: at(options.fleetPath, index + 1),
      consumer: at(options.schemaJsonPath),
    },
  ];
}

// Pure: the shipped JSON schema is exactly what the zod schema generates, and fleet.yaml validates against it.
export function checkFleetSchema(options: CheckFleetSchemaOptions): ContractResult {
  const title = `${options.fleetPath} + ${options.schemaJsonPath} ↔ ${ZOD_SCHEMA_FILE}`;
  const problems = [
    ...checkJsonSchemaDrift(options),
    ...checkFleetValidates(options),
    ...checkSchemaReference(options),
  ];
  return createContractResult({ pair: 'fleet-schema', title, problems });
}
