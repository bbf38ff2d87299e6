import { globalRegistry, type z } from 'zod';

// A small example document for a zod schema, to push through the writer's encoding and the reader's parse.
// `variant` picks a different branch of every union, enum and nullable, so a few variants cover each branch.

export interface SchemaExample {
  value: unknown;
  /** zod types the builder could not make a value for (the round trip is then not proof). */
  unsupported: string[];
}

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  items?: z.ZodType[];
  values?: unknown[];
  entries?: Record<string, string | number>;
  getter?: () => z.ZodType;
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

function pick<T>(items: readonly T[], variant: number): T | undefined {
  return items.length === 0 ? undefined : items[variant % items.length];
}

function build(schema: z.ZodType, variant: number, unsupported: string[], depth: number): unknown {
  const def = defOf(schema);
  const inner = (next: z.ZodType | undefined) =>
    next === undefined || depth > 20 ? undefined : build(next, variant, unsupported, depth + 1);
  switch (def.type) {
    case 'object':
      return Object.fromEntries(Object.entries(def.shape ?? {}).map(([key, value]) => [key, inner(value)]));
    case 'literal':
      return pick(def.values ?? [], variant);
    case 'enum':
      return pick(Object.values(def.entries ?? {}), variant);
    case 'string': {
      // A string with a format (a SHA-256) carries its own examples; any other string takes a made-up one.
      const examples = globalRegistry.get(schema)?.examples;
      return Array.isArray(examples) && examples.length > 0 ? pick(examples, variant) : `example-${variant}`;
    }
    case 'number':
    case 'int':
      return variant + 1;
    case 'boolean':
      return variant % 2 === 0;
    case 'null':
      return null;
    case 'nullable':
      return variant % 2 === 1 ? null : inner(def.innerType);
    case 'optional':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return inner(def.innerType);
    case 'pipe':
      return inner(def.in);
    case 'lazy':
      return inner(def.getter?.());
    case 'array':
      return [inner(def.element)];
    case 'tuple':
      return (def.items ?? []).map((item) => inner(item));
    case 'record':
      return { [`key-${variant}`]: inner(def.valueType) };
    case 'union':
      return inner(pick(def.options ?? [], variant));
    case 'custom': {
      // A hand-written check has no shape to read: it proves its round trip with the examples it registers.
      const examples = globalRegistry.get(schema)?.examples;
      if (Array.isArray(examples) && examples.length > 0) return pick(examples, variant);
      unsupported.push(def.type);
      return undefined;
    }
    default:
      unsupported.push(def.type);
      return undefined;
  }
}

/** How many variants cover every branch: the widest union or enum in the schema. */
export function countVariants(schema: z.ZodType, depth = 0): number {
  const def = defOf(schema);
  const children = [
    ...Object.values(def.shape ?? {}),
    ...(def.options ?? []),
    ...(def.items ?? []),
    ...[def.innerType, def.in, def.element, def.valueType].filter(
      (child): child is z.ZodType => child !== undefined,
    ),
  ];
  const own = Math.max(
    def.options?.length ?? 1,
    Object.keys(def.entries ?? {}).length || 1,
    def.type === 'nullable' ? 2 : 1,
  );
  return depth > 20 ? own : Math.max(own, ...children.map((child) => countVariants(child, depth + 1)));
}

// Pure: an example value for `schema`, choosing branch `variant` of every union.
export function buildSchemaExample(schema: z.ZodType, variant = 0): SchemaExample {
  const unsupported: string[] = [];
  const value = build(schema, variant, unsupported, 0);
  return { value, unsupported: [...new Set(unsupported)] };
}
