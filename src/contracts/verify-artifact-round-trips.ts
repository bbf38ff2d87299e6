import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { z } from 'zod';
import type { ArtifactSchemaModule } from './check-artifact-schemas.js';
import { at, type ContractProblem } from './contract-result.js';
import { checkSchemaRoundTrip } from './check-schema-round-trip.js';

// Loads each artifact's schema module as the program runs it (dist/ or, under tsx, src/) and round-trips
// generated documents through the exported schema object and version constant.

export interface VerifyRoundTripsOptions {
  modules: readonly ArtifactSchemaModule[];
  /** The program's code folder (dist or src) that holds this file. */
  codeDir: string;
}

function toRuntimePath(codeDir: string, modulePath: string): string {
  const withinSrc = modulePath.replace(/^src\//, '');
  const extension = path.extname(import.meta.url);
  return path.join(codeDir, withinSrc.replace(/\.ts$/, extension));
}

function isZodSchema(value: unknown): value is z.ZodType {
  return (
    value !== null &&
    typeof value === 'object' &&
    '_zod' in value &&
    typeof (value as z.ZodType).safeParse === 'function'
  );
}

export async function verifyArtifactRoundTrips({
  modules,
  codeDir,
}: VerifyRoundTripsOptions): Promise<{ problems: ContractProblem[]; notes: string[] }> {
  const problems: ContractProblem[] = [];
  const notes: string[] = [];
  for (const module of modules) {
    const runtimePath = toRuntimePath(codeDir, module.modulePath);
    if (!existsSync(runtimePath)) {
      notes.push(
        `${module.fileName}: ${path.basename(runtimePath)} is not built; run \`npm run build\` for the round trip`,
      );
      continue;
    }
    const exports = (await import(pathToFileURL(runtimePath).href)) as Record<string, unknown>;
    const schema = exports[module.schemaExport];
    const version = exports[module.versionExport];
    if (!isZodSchema(schema) || version !== module.version) {
      const message = `${module.fileName}: the built ${path.basename(runtimePath)} does not match its source (${module.schemaExport} or ${module.versionExport}=${module.version} differs). Fix: run \`npm run build\`.`;
      problems.push({
        message,
        producer: at(module.modulePath),
        consumer: at(path.relative(path.dirname(codeDir), runtimePath)),
      });
      continue;
    }
    const outcome = checkSchemaRoundTrip({
      fileName: module.fileName,
      modulePath: module.modulePath,
      schema,
      version,
      versionExport: module.versionExport,
    });
    problems.push(...outcome.problems);
    notes.push(...outcome.notes);
  }
  return { problems, notes };
}
