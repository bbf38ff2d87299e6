import type { z } from 'zod';
import type { YamlPath } from './parse-fleet-yaml.js';

// Turn zod issues into one line each: `file:line key: what is wrong, got <value>. Fix: …`.

export function formatPath(path: YamlPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out === '' ? '(top level)' : out;
}

export function describeValue(value: unknown): string {
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

function fixFor(issue: z.core.$ZodIssue, value: unknown): string {
  switch (issue.code) {
    case 'unrecognized_keys':
      return 'remove it or correct its spelling';
    case 'invalid_type':
      return value === undefined ? 'add this key' : `set it to a ${issue.expected}`;
    case 'too_small':
      return `use a value >= ${String(issue.minimum)}${issue.origin === 'array' ? ' items' : ''}`;
    case 'too_big':
      return `use a value <= ${String(issue.maximum)}`;
    case 'invalid_value':
      return `use one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
      return `write a valid ${issue.format}`;
    default:
      return 'correct the value';
  }
}

export interface FormatIssuesOptions {
  issues: readonly z.core.$ZodIssue[];
  raw: unknown;
  source: string;
  lineOf?: (path: YamlPath, key?: string) => number | undefined;
}

export function formatIssues({ issues, raw, source, lineOf }: FormatIssuesOptions): string[] {
  const lines: string[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const line = lineOf?.(issue.path, key);
        const where = `${source}${line === undefined ? '' : `:${line}`}`;
        const path = formatPath([...issue.path, key]);
        lines.push(`${where}: ${path}: unknown key. Fix: remove it or correct its spelling.`);
      }
      continue;
    }
    const value = valueAt(raw, issue.path);
    const line = lineOf?.(issue.path) ?? lineOf?.(issue.path.slice(0, -1), String(issue.path.at(-1)));
    const where = `${source}${line === undefined ? '' : `:${line}`}`;
    lines.push(
      `${where}: ${formatPath(issue.path)}: ${issue.message}, got ${describeValue(value)}. Fix: ${fixFor(issue, value)}.`,
    );
  }
  return lines;
}
