import { z } from 'zod';
import { FleetFileSchema } from './schema.js';

// The JSON schema shipped as rocm-perf.schema.json for editor completion of fleet.yaml.
function buildFleetJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(FleetFileSchema, { io: 'input', unrepresentable: 'any' }),
    title: 'rocm-perf fleet manifest',
  };
}

export function renderFleetJsonSchema(): string {
  return `${JSON.stringify(buildFleetJsonSchema(), null, 2)}\n`;
}
