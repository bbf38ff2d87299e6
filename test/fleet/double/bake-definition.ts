// The bake definition the double reads (the JSON form `bake --print` prints, which bake also accepts as a file),
// normalised so composable attributes are always flat string maps.
import * as z from 'zod/mini';

export type Attrs = Record<string, string>;

const Composable = z.optional(
  z.array(z.union([z.string(), z.record(z.string(), z.union([z.string(), z.boolean(), z.number()]))])),
);
const StringMap = z.optional(z.record(z.string(), z.nullable(z.string())));

const RawBakeTargetSchema = z.looseObject({
  description: z.optional(z.string()),
  inherits: z.optional(z.array(z.string())),
  annotations: z.optional(z.array(z.string())),
  attest: Composable,
  context: z.optional(z.string()),
  contexts: StringMap,
  dockerfile: z.optional(z.string()),
  'dockerfile-inline': z.optional(z.string()),
  args: StringMap,
  labels: StringMap,
  tags: z.optional(z.array(z.string())),
  'cache-from': Composable,
  'cache-to': Composable,
  target: z.optional(z.string()),
  secret: Composable,
  ssh: Composable,
  platforms: z.optional(z.array(z.string())),
  output: Composable,
  pull: z.optional(z.boolean()),
  'no-cache': z.optional(z.boolean()),
  network: z.optional(z.string()),
  'no-cache-filter': z.optional(z.array(z.string())),
  'shm-size': z.optional(z.string()),
  ulimits: z.optional(z.array(z.string())),
  call: z.optional(z.string()),
  entitlements: z.optional(z.array(z.string())),
  'extra-hosts': StringMap,
});

const RawBakeDefinitionSchema = z.looseObject({
  group: z.optional(
    z.record(
      z.string(),
      z.looseObject({ description: z.optional(z.string()), targets: z._default(z.array(z.string()), []) }),
    ),
  ),
  target: z._default(z.record(z.string(), RawBakeTargetSchema), {}),
});

export interface BakeTarget {
  description?: string;
  inherits?: string[];
  annotations?: string[];
  attest?: Attrs[];
  context?: string;
  contexts?: Record<string, string | null>;
  dockerfile?: string;
  'dockerfile-inline'?: string;
  args?: Record<string, string | null>;
  labels?: Record<string, string | null>;
  tags?: string[];
  'cache-from'?: Attrs[];
  'cache-to'?: Attrs[];
  target?: string;
  secret?: Attrs[];
  ssh?: Attrs[];
  platforms?: string[];
  output?: Attrs[];
  pull?: boolean;
  'no-cache'?: boolean;
  network?: string;
  'no-cache-filter'?: string[];
  'shm-size'?: string;
  ulimits?: string[];
  call?: string;
  entitlements?: string[];
  'extra-hosts'?: Record<string, string | null>;
}

export interface BakeDefinition {
  group: Record<string, { description?: string; targets: string[] }>;
  target: Record<string, BakeTarget>;
}

export const composableKeys = ['attest', 'cache-from', 'cache-to', 'secret', 'ssh', 'output'] as const;
type ComposableKey = (typeof composableKeys)[number];

/** `type=registry,ref=x,mode=max` → map; a bare value means a registry ref (cache) or a local dest (output). */
export function parseComposable(key: ComposableKey, value: string): Attrs {
  if (!value.includes('=')) {
    if (key === 'cache-from' || key === 'cache-to') return { type: 'registry', ref: value };
    if (key === 'output') return { type: 'local', dest: value };
    return { id: value };
  }
  const attrs: Attrs = {};
  for (const field of value.split(',')) {
    const eq = field.indexOf('=');
    if (eq === -1) throw new Error(`invalid value ${field}`);
    attrs[field.slice(0, eq).trim().toLowerCase()] = field.slice(eq + 1);
  }
  return attrs;
}

function toAttrs(key: ComposableKey, entry: string | Record<string, string | boolean | number>): Attrs {
  if (typeof entry === 'string') return parseComposable(key, entry);
  return Object.fromEntries(Object.entries(entry).map(([k, v]) => [k, String(v)]));
}

export function toBakeDefinition(raw: unknown, source: string): BakeDefinition {
  const parsed = RawBakeDefinitionSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(
      `${source}: not a bake definition: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  const target: Record<string, BakeTarget> = {};
  for (const [name, rawTarget] of Object.entries(parsed.data.target)) {
    const t = { ...rawTarget } as Record<string, unknown>;
    for (const key of composableKeys) {
      const list = rawTarget[key];
      if (list !== undefined) t[key] = list.map((entry) => toAttrs(key, entry));
    }
    target[name] = t;
  }
  const group: BakeDefinition['group'] = {};
  for (const [name, g] of Object.entries(parsed.data.group ?? {})) {
    group[name] =
      g.description === undefined
        ? { targets: g.targets }
        : { description: g.description, targets: g.targets };
  }
  return { group, target };
}
