import { readFileSync } from 'node:fs';

// Real buildx/BuildKit output captured on this project's machines (test/fixtures/buildkit-real/README.md).

export const readRealFixture = (name: string): string =>
  readFileSync(new URL(`../fixtures/buildkit-real/${name}`, import.meta.url), 'utf8');
