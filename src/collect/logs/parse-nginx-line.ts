// An nginx JSON access-log line → the values of the variables a reader asks for. A line the shipped conf writes is
// plain: the template's literals around values that are printable ASCII without `"` or `\` (quoted) or JSON numbers
// (unquoted). One sticky regular expression built from the template checks the whole line; the values are then cut
// out between the literals. Any other line (escapes, non-ASCII, another key order, an older log_format) is read with
// JSON.parse and mapped by key, so keys are matched by name.
import { ParseError } from '../../shared/errors.js';
import type { ByteLine } from './byte-line.js';
import { copyLineText } from './byte-line.js';
import { parseJsonLine } from './json-fields.js';
import type { LineOutcome } from './line-outcome.js';
import { toRecord, toReject } from './line-outcome.js';
import type { LogFormatSpec } from './parse-log-format.js';

/** A value as JSON has it: a string (quoted in the template) or a number; other JSON values as their JSON text. */
export type NginxValue = string | number;

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
    code === 43 || code === 45 || code === 46 || (code | 32) === 101 || (code >= 48 && code <= 57);
  )
    code = text.charCodeAt(++end);
  return end;
}

const toNginxValue = (value: unknown): NginxValue =>
  typeof value === 'string' || typeof value === 'number' ? value : JSON.stringify(value);

/**
 * A parser of lines of one log_format (escape=json only: other escapings can put a bare `"` inside a value) giving
 * the values of `variables`, in that order (undefined for a variable the format lacks).
 */
export function createNginxLineParser(
  spec: LogFormatSpec,
  variables: readonly string[],
): (line: ByteLine) => LineOutcome<(NginxValue | undefined)[]> {
  if (spec.escape !== 'json')
    throw new ParseError(
      `log_format ${spec.name}`,
      undefined,
      `escape=${spec.escape} is not supported; use \`log_format ${spec.name} escape=json …\``,
    );
  const { fields } = spec;
  const literals = spec.literals.map(toLatin1);
  const pattern = new RegExp(
    fields.reduce(
      (source, field, i) =>
        `${source}${field.quoted ? plainString : jsonNumber}${escapeRegExp(literals[i + 1] ?? '')}`,
      escapeRegExp(literals[0] ?? ''),
    ),
    'y',
  );
  const isJsonTemplate = literals[0]?.startsWith('{') === true;
  /** For each field of the template, where its value goes in the output (-1: not asked for). */
  const slotOf = fields.map((field) => variables.indexOf(field.variable));

  function cutPlainValues(line: ByteLine): (NginxValue | undefined)[] | undefined {
    const { text } = line;
    pattern.lastIndex = line.start;
    if (!isJsonTemplate || !pattern.test(text) || pattern.lastIndex !== line.end) return undefined;
    const values = new Array<NginxValue | undefined>(variables.length);
    let at = line.start + (literals[0]?.length ?? 0);
    for (let i = 0; i < fields.length; i++) {
      const quoted = fields[i]?.quoted === true;
      const end = quoted ? text.indexOf('"', at) : findNumberEnd(text, at);
      const slot = slotOf[i] ?? -1;
      if (slot >= 0) values[slot] = quoted ? copyLineText(line, at, end) : Number(text.slice(at, end));
      at = end + (literals[i + 1]?.length ?? 0);
    }
    return values;
  }

  return (line) => {
    const plain = cutPlainValues(line);
    if (plain !== undefined) return toRecord(plain);
    const outcome = parseJsonLine(line);
    if (!outcome.ok) return outcome;
    const object = outcome.record;
    const missing = fields.find((field) => !Object.hasOwn(object, field.key));
    if (missing !== undefined)
      return toReject(
        `no "${missing.key}" key ($${missing.variable}); the log was written with another log_format`,
      );
    const values = new Array<NginxValue | undefined>(variables.length);
    fields.forEach((field, i) => {
      const slot = slotOf[i] ?? -1;
      if (slot >= 0) values[slot] = toNginxValue(object[field.key]);
    });
    return toRecord(values);
  };
}
