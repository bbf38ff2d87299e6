// An nginx JSON access-log line parser built from the log_format's field spec. The fast path walks the template:
// literal, value, literal … (escape=json guarantees a quoted value holds no bare `"`). A line that does not follow
// the template (a reordered or older log_format) is read by JSON key instead, so keys are matched by name.
import { ParseError } from '../../shared/errors.js';
import { findStringEnd, parseJsonObject } from './json-fields.js';
import type { LineOutcome } from './line-outcome.js';
import { toRecord, toReject, toSkip } from './line-outcome.js';
import type { LogFormatSpec } from './parse-log-format.js';

/** Values in the order of `spec.fields` ('' for an empty or missing value). */
export type NginxValues = string[];

export interface NginxLineParser {
  spec: LogFormatSpec;
  parseValues(line: string): LineOutcome<NginxValues>;
  /** Index of a variable in the values, or -1. */
  indexOf(variable: string): number;
}

function decodeJsonText(raw: string): string | undefined {
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return undefined;
  }
}

function matchTemplate(spec: LogFormatSpec, line: string): NginxValues | undefined {
  const { literals, fields } = spec;
  if (!line.startsWith(literals[0] ?? '')) return undefined;
  let position = (literals[0] ?? '').length;
  const values: string[] = new Array<string>(fields.length);
  for (let i = 0; i < fields.length; i++) {
    const next = literals[i + 1] ?? '';
    const end = fields[i]?.quoted ? findStringEnd(line, position - 1) : line.indexOf(next, position);
    if (end < 0) return undefined;
    const value = decodeJsonText(line.slice(position, end));
    if (value === undefined || !line.startsWith(next, end)) return undefined;
    values[i] = value;
    position = end + next.length;
  }
  return position === line.length ? values : undefined;
}

function readByKey(spec: LogFormatSpec, line: string): LineOutcome<NginxValues> {
  const object = parseJsonObject(line);
  if (object === undefined)
    return line.trimEnd().endsWith('}') ? toReject('invalid JSON') : toReject('truncated JSON line');
  const values: string[] = [];
  for (const field of spec.fields) {
    const value = object[field.key];
    if (value === undefined)
      return toReject(
        `no "${field.key}" key ($${field.variable}); the log was written with another log_format`,
      );
    values.push(
      typeof value === 'string' ? value : typeof value === 'number' ? String(value) : JSON.stringify(value),
    );
  }
  return toRecord(values);
}

export function createNginxLineParser(spec: LogFormatSpec): NginxLineParser {
  if (spec.escape !== 'json') {
    throw new ParseError(
      `log_format ${spec.name}`,
      undefined,
      `escape=${spec.escape} is not supported; use \`log_format ${spec.name} escape=json …\``,
    );
  }
  const indices = new Map(spec.fields.map((field, index) => [field.variable, index]));
  return {
    spec,
    indexOf: (variable) => indices.get(variable) ?? -1,
    parseValues(line) {
      if (line.charCodeAt(0) !== 123) return line.trim() === '' ? toSkip('blank line') : toSkip('not JSON');
      const values = matchTemplate(spec, line);
      return values === undefined ? readByKey(spec, line) : toRecord(values);
    },
  };
}
