// Regenerates rocm-perf.schema.json from the zod schema (the drift test fails until this is run).
import { writeFileSync } from 'node:fs';
import { renderFleetJsonSchema } from '../src/config/fleet-json-schema.js';

writeFileSync(new URL('../rocm-perf.schema.json', import.meta.url), renderFleetJsonSchema());
console.log('wrote rocm-perf.schema.json');
