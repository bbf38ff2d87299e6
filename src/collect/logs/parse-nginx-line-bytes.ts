// The nginx JSON log fast path on bytes: one sticky regular expression built from the log_format template, run at
// the line's start in the chunk's latin1 text (one character per byte) and required to end at the line's end. It accepts PLAIN values only — printable ASCII without
// `"` or `\` — and an unquoted value may not contain the first character of the literal after it, so a value ends
// exactly where the template walk of parse-nginx-line.ts ends it. A line it accepts therefore gives the values that
// walk gives; any other line returns undefined and the caller uses the exact parser. (V8 runs the expression
// natively, several times faster than a JavaScript loop over the bytes.)
import type { ByteLine } from './byte-line.js';
import { copyLineText } from './byte-line.js';
import type { NginxValues } from './parse-nginx-line.js';
import type { LogFormatSpec } from './parse-log-format.js';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
const hex = (code: number) => `\\x${code.toString(16).padStart(2, '0')}`;

/** A character class of printable ASCII without `"`, `\` and `also`, e.g. `[\x20-\x21\x23-\x5b…]`. */
function toPlainClass(also = -1): string {
  const ranges: string[] = [];
  for (let code = 32; code <= 126; code++) {
    if (code === 34 || code === 92 || code === also) continue;
    let last = code;
    while (last < 126 && last + 1 !== 34 && last + 1 !== 92 && last + 1 !== also) last++;
    ranges.push(last === code ? hex(code) : `${hex(code)}-${hex(last)}`);
    code = last;
  }
  return `[${ranges.join('')}]*`;
}

/** A literal of the template as its UTF-8 bytes read as latin1, i.e. as it appears in the decoded line. */
const toLatin1 = (literal: string) => Buffer.from(literal, 'utf8').toString('latin1');

/** A sticky pattern of the whole line, without captures (its end is checked by the caller: no value holds a newline). */
function toPattern(spec: LogFormatSpec, literals: string[]): RegExp {
  let source = escapeRegExp(literals[0] ?? '');
  spec.fields.forEach((field, index) => {
    const next = literals[index + 1] ?? '';
    source += `${toPlainClass(field.quoted ? -1 : next.charCodeAt(0))}${escapeRegExp(next)}`;
  });
  return new RegExp(source, 'y');
}

export interface NginxBytesMatcherOptions {
  /** Indices of the fields the caller reads; the others are left ''. Default: all. */
  usedFields?: readonly number[];
  /** Indices of the fields whose values outlive the line (kept in records): they are copied, never sliced. */
  keptFields: readonly number[];
}

/** Values in the order of spec.fields for a plain line of this format, else undefined (use the exact parser). */
export function createNginxBytesMatcher(
  spec: LogFormatSpec,
  options: NginxBytesMatcherOptions,
): (line: ByteLine) => NginxValues | undefined {
  const literals = spec.literals.map(toLatin1);
  const pattern = toPattern(spec, literals);
  const count = spec.fields.length;
  const used = spec.fields.map((_, index) => options.usedFields?.includes(index) ?? true);
  const kept = spec.fields.map((_, index) => options.keptFields.includes(index));
  // A value ends at the first character of the literal after it: a quoted value cannot hold `"` (which that literal
  // starts with), an unquoted one cannot hold that character (the pattern's class for it excludes it).
  const ends = spec.fields.map((_, index) => (literals[index + 1] ?? '').charAt(0));
  const skips = spec.fields.map((_, index) => (literals[index + 1] ?? '').length);
  const firstSkip = literals[0]?.length ?? 0;
  // The exact parser skips a line that does not start with `{` as not JSON: such a template never matches here.
  if (!literals[0]?.startsWith('{')) return () => undefined;
  return (line) => {
    pattern.lastIndex = line.start;
    if (!pattern.test(line.text) || pattern.lastIndex !== line.end) return undefined;
    const text = line.text;
    const values: string[] = new Array<string>(count);
    let offset = line.start + firstSkip;
    for (let i = 0; i < count; i++) {
      const end = text.indexOf(ends[i] ?? '', offset);
      // Slices of 13 characters or more are views of the chunk's text: copy those that a record keeps.
      values[i] = !used[i]
        ? ''
        : end - offset >= 13 && kept[i] === true
          ? copyLineText(line, offset, end - offset)
          : text.slice(offset, end);
      offset = end + (skips[i] ?? 0);
    }
    return values;
  };
}
