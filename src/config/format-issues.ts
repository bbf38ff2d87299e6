import type { z } from 'zod';
import { findNearest } from '../shared/find-nearest.js';
import type { YamlPath } from './parse-fleet-yaml.js';

// Turn zod issues into one line each, in the user's words: `file:line key: what is wrong, got <value>. Fix: …`.
// zod's own wording ("Invalid input: expected number, received undefined") is replaced; a message the schema
// wrote itself ("expected an http(s) URL") is kept. A mistyped key gets "did you mean", and the key it was
// meant to be is then not also reported missing.

function formatPath(path: YamlPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out === '' ? '(top level)' : out;
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing (the key is missing)';
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  const text = JSON.stringify(value);
  const shown = text === undefined ? typeof value : text.length > 60 ? `${text.slice(0, 57)}...` : text;
  return `\`${shown}\` (${type})`;
}

function valueAt(root: unknown, path: YamlPath): unknown {
  let node = root;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[segment];
  }
  return node;
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  number: 'a number',
  int: 'a whole number',
  string: 'a string',
  boolean: 'true or false',
  object: 'a mapping (`key: value` lines)',
  array: 'a list',
};
const typeWord = (type: string): string => TYPE_WORDS[type] ?? type;

/** zod's own messages start like this; a schema's own message (`expected an http(s) URL`) does not. */
const ZOD_WORDING = /^(Invalid|Too small|Too big|Unrecognized)/;

/** A number just inside a bound, to offer as the fix: `> 0` → 1, `>= 0.5` → 0.5. */
function justInside(bound: number, inclusive: boolean, direction: 1 | -1): number {
  if (inclusive) return bound;
  return Number.isInteger(bound) ? bound + direction : bound * (1 + 0.1 * direction);
}

function describeIssue(issue: z.core.$ZodIssue, value: unknown): { what: string; fix: string } {
  const key = String(issue.path.at(-1) ?? 'value');
  switch (issue.code) {
    case 'invalid_type': {
      const ours = !ZOD_WORDING.test(issue.message);
      const expected = ours ? issue.message.replace(/^expected /, '') : typeWord(issue.expected);
      const placeholder = ours ? expected : issue.expected;
      return value === undefined
        ? { what: `missing (expected ${expected})`, fix: `add \`${key}: <${placeholder}>\`` }
        : { what: `expected ${expected}`, fix: `write ${expected}` };
    }
    case 'too_small': {
      if (issue.origin === 'array')
        return { what: `needs at least ${String(issue.minimum)} item(s)`, fix: 'add items' };
      if (issue.origin === 'string') return { what: 'must not be empty', fix: 'give it a value' };
      const inclusive = issue.inclusive === true;
      const min = Number(issue.minimum);
      return {
        what: `must be ${inclusive ? 'at least' : 'more than'} ${min}`,
        fix: `use a value ${inclusive ? '>=' : '>'} ${min}, e.g. ${justInside(min, inclusive, 1)}`,
      };
    }
    case 'too_big': {
      const inclusive = issue.inclusive === true;
      const max = Number(issue.maximum);
      return {
        what: `must be ${inclusive ? 'at most' : 'less than'} ${max}`,
        fix: `use a value ${inclusive ? '<=' : '<'} ${max}, e.g. ${justInside(max, inclusive, -1)}`,
      };
    }
    case 'invalid_value': {
      const options = issue.values.map((v) => JSON.stringify(v));
      const near = typeof value === 'string' ? findNearest(value, issue.values.map(String)) : [];
      return {
        what: `expected one of ${options.join(', ')}`,
        fix:
          near.length > 0 ? `did you mean ${JSON.stringify(near[0])}?` : `use one of ${options.join(', ')}`,
      };
    }
    case 'invalid_format':
      return {
        what: ZOD_WORDING.test(issue.message) ? `not a valid ${issue.format}` : issue.message,
        fix: `write a valid ${issue.format}`,
      };
    default:
      return {
        what: ZOD_WORDING.test(issue.message) ? 'invalid value' : issue.message,
        fix: 'correct the value',
      };
  }
}

/** The parts of zod's schema objects this reads, to list the keys a mapping takes. */
interface SchemaDef {
  type: string;
  shape?: Record<string, SchemaLike>;
  element?: SchemaLike;
  innerType?: SchemaLike;
  in?: SchemaLike;
  options?: SchemaLike[];
}
interface SchemaLike {
  _zod: { def: SchemaDef };
}

function unwrap(schema: SchemaLike | undefined): SchemaLike | undefined {
  let current = schema;
  for (let depth = 0; current && depth < 20; depth += 1) {
    const def = current._zod.def;
    const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
    if (!inner) return current;
    current = inner;
  }
  return current;
}

/** The keys the schema allows in the mapping at `path`, or [] when it cannot tell. */
function listKnownKeys(schema: SchemaLike | undefined, path: YamlPath): string[] {
  let current = unwrap(schema);
  for (const segment of path) {
    const def = current?._zod.def;
    if (def?.type === 'object' && typeof segment === 'string') current = unwrap(def.shape?.[segment]);
    else if (def?.type === 'array' && typeof segment === 'number') current = unwrap(def.element);
    else return [];
  }
  const def = current?._zod.def;
  if (def?.type === 'object') return Object.keys(def.shape ?? {});
  if (def?.type === 'union')
    return [...new Set((def.options ?? []).flatMap((option) => listKnownKeys(option, [])))];
  return [];
}

export interface FormatIssuesOptions {
  issues: readonly z.core.$ZodIssue[];
  raw: unknown;
  source: string;
  lineOf?: (path: YamlPath, key?: string) => number | undefined;
  /** The schema the issues came from: its keys are offered for a mistyped one. */
  schema?: z.ZodType;
}

interface Renamed {
  parent: string;
  key: string;
}

function formatUnknownKeys(
  issue: z.core.$ZodIssue & { code: 'unrecognized_keys' },
  options: FormatIssuesOptions,
): { lines: string[]; renamed: Renamed[] } {
  const { raw, source, lineOf, schema } = options;
  const known = listKnownKeys(schema, issue.path);
  const present = valueAt(raw, issue.path);
  const given = new Set(present && typeof present === 'object' ? Object.keys(present) : []);
  const free = known.filter((name) => !given.has(name));
  const lines: string[] = [];
  const renamed: Renamed[] = [];
  for (const key of issue.keys) {
    const line = lineOf?.(issue.path, key);
    const where = `${source}${line === undefined ? '' : `:${line}`}`;
    const [near] = findNearest(key, free);
    const fix =
      near !== undefined
        ? `did you mean \`${near}\`? Rename it`
        : known.length > 0
          ? `remove it, or use one of ${known.join(', ')}`
          : 'remove it or correct its spelling';
    if (near !== undefined) renamed.push({ parent: formatPath(issue.path), key: near });
    lines.push(`${where}: ${formatPath([...issue.path, key])}: unknown key. Fix: ${fix}.`);
  }
  return { lines, renamed };
}

export function formatIssues(options: FormatIssuesOptions): string[] {
  const { issues, raw, source, lineOf } = options;
  const lines: string[] = [];
  const renamed: Renamed[] = [];
  for (const issue of issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    const unknown = formatUnknownKeys(issue, options);
    lines.push(...unknown.lines);
    renamed.push(...unknown.renamed);
  }
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') continue;
    const value = valueAt(raw, issue.path);
    // A key reported missing that a mistyped key next to it was meant to be: that line says it already.
    const parent = formatPath(issue.path.slice(0, -1));
    const key = String(issue.path.at(-1));
    if (value === undefined && renamed.some((r) => r.parent === parent && r.key === key)) continue;
    const line = lineOf?.(issue.path) ?? lineOf?.(issue.path.slice(0, -1), key);
    const where = `${source}${line === undefined ? '' : `:${line}`}`;
    const { what, fix } = describeIssue(issue, value);
    const got = value === undefined ? '' : `, got ${describeValue(value)}`;
    lines.push(
      `${where}: ${formatPath(issue.path)}: ${what}${got}. Fix: ${fix}${fix.endsWith('?') ? '' : '.'}`,
    );
  }
  return lines;
}
