// An nginx JSON access-log line → the values of its log_format's variables, in the order of the spec's fields.
// A line the shipped conf writes is plain: the template's literals around values that are printable ASCII without
// `"` or `\` (quoted) or JSON numbers (unquoted). One sticky regular expression built from the template checks the
// whole line; the values are then cut out between the literals. Any other line (escapes, non-ASCII, another key
// order, an older log_format) is read with JSON.parse and mapped by key, so keys are matched by name.
import { ParseError } from '../../shared/errors.js';
import type { ByteLine } from './byte-line.js';
import { copyLineText } from './byte-line.js';
import { parseJsonLine } from './json-fields.js';
import type { LineOutcome } from './line-outcome.js';
import { toRecord, toReject } from './line-outcome.js';
import type { LogFormatSpec } from './parse-log-format.js';

/** Values in the order of `spec.fields`; a JSON number as its text, '' for an empty value. */
export type NginxValues = string[];

const plainString = '[ !#-\\[\\]-~]*';
const jsonNumber = '-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?';
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
/** A literal as it appears in the latin1 text of its UTF-8 bytes. */
const toLatin1 = (literal: string) => Buffer.from(literal, 'utf8').toString('latin1');

/** Index just past the JSON number starting at `at` (the pattern checked it). */
function findNumberEnd(text: string, at: number): number {
  let end = at;
  for (
    let code = text.charCodeAt(end);
    (code >= 48 && code <= 57) || code === 46 || code === 45 || code === 43 || (code | 32) === 101;
    code = text.charCodeAt(++end)
  );
  return end;
}

function toTextValue(value: unknown): string {
  return typeof value === 'string'
    ? value
    : typeof value === 'number'
      ? String(value)
      : JSON.stringify(value);
}

/** A parser of lines of one log_format (escape=json only: other escapings can put a bare `"` inside a value). */
export function createNginxLineParser(spec: LogFormatSpec): (line: ByteLine) => LineOutcome<NginxValues> {
  if (spec.escape !== 'json')
    throw new ParseError(
      `log_format ${spec.name}`,
      undefined,
      `escape=${spec.escape} is not supported; use \`log_format ${spec.name} escape=json …\``,
    );
  const literals = spec.literals.map(toLatin1);
  const pattern = new RegExp(
    spec.fields.reduce(
      (source, field, i) =>
        `${source}${field.quoted ? plainString : jsonNumber}${escapeRegExp(literals[i + 1] ?? '')}`,
      escapeRegExp(literals[0] ?? ''),
    ),
    'y',
  );
  const isJsonTemplate = literals[0]?.startsWith('{') === true;

  function readPlainValues(line: ByteLine): NginxValues | undefined {
    pattern.lastIndex = line.start;
    if (!isJsonTemplate || !pattern.test(line.text) || pattern.lastIndex !== line.end) return undefined;
    const values = new Array<string>(spec.fields.length);
    let at = line.start + (literals[0]?.length ?? 0);
    spec.fields.forEach((field, i) => {
      const end = field.quoted ? line.text.indexOf('"', at) : findNumberEnd(line.text, at);
      values[i] = copyLineText(line, at, end);
      at = end + (literals[i + 1]?.length ?? 0);
    });
    return values;
  }

  return (line) => {
    const plain = readPlainValues(line);
    if (plain !== undefined) return toRecord(plain);
    const outcome = parseJsonLine(line);
    if (!outcome.ok) return outcome;
    const values: NginxValues = [];
    for (const field of spec.fields) {
      const value = outcome.record[field.key];
      if (value === undefined)
        return toReject(
          `no "${field.key}" key ($${field.variable}); the log was written with another log_format`,
        );
      values.push(toTextValue(value));
    }
    return toRecord(values);
  };
}
