import { readFileSync } from 'node:fs';
import path from 'node:path';

const fixtures = path.resolve(import.meta.dirname, '../../../fixtures');

/** The non-empty lines of a fixture under test/fixtures/, the seeds the fuzz and equivalence tests mutate. */
export const seedLines = (file: string): string[] =>
  readFileSync(path.join(fixtures, file), 'utf8').split('\n').filter(Boolean);
