// nginx `log_format` → a field spec: the literal text between variables, and for each variable its JSON key and
// whether it is quoted. The sccache log parser is built from this, so the shipped conf and the parser cannot drift.
import { ParseError } from '../../shared/errors.js';
import { errorMessage } from '../../shared/error-message.js';

interface LogFormatField {
  /** JSON key, e.g. `status`. */
  key: string;
  /** nginx variable without the `$`, e.g. `status`. */
  variable: string;
  /** The value sits inside quotes in the template (strings, or numbers that may be empty). */
  quoted: boolean;
}

export interface LogFormatSpec {
  name: string;
  escape: 'default' | 'json' | 'none';
  /** The concatenated format string. */
  template: string;
  /** literals[i] precedes fields[i]; literals has one more entry than fields. */
  literals: string[];
  fields: LogFormatField[];
}

const simpleEscapes: Record<string, string> = { '"': '"', "'": "'", '\\': '\\', t: '\t', r: '\r', n: '\n' };

/** nginx's tokenizer, reduced to what log_format needs: words, quoted strings (with nginx's escapes), `;{}`. */
export function tokenizeNginxConf(text: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i] ?? '';
    if (/\s/.test(char)) i++;
    else if (char === '#') i = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
    else if (char === ';' || char === '{' || char === '}') tokens.push(text[i++] ?? '');
    else if (char === '"' || char === "'") i = parseQuoted(text, i, tokens);
    else {
      const match = /[^\s;{}"'#]+/y;
      match.lastIndex = i;
      const word = match.exec(text)?.[0] ?? char;
      tokens.push(word);
      i += word.length;
    }
  }
  return tokens;
}

function parseQuoted(text: string, start: number, tokens: string[]): number {
  const quote = text[start];
  let value = '';
  let i = start + 1;
  while (i < text.length && text[i] !== quote) {
    if (text[i] === '\\' && i + 1 < text.length) {
      const next = text[i + 1] ?? '';
      value += simpleEscapes[next] ?? `\\${next}`;
      i += 2;
    } else value += text[i++];
  }
  if (i >= text.length)
    throw new ParseError(
      'nginx conf',
      undefined,
      `unterminated ${quote} string starting with ${JSON.stringify(text.slice(start, start + 40))}`,
    );
  tokens.push(value);
  return i + 1;
}

const variablePattern = /\$(?:\{([A-Za-z0-9_]+)\}|([A-Za-z0-9_]+))/g;
const keyBeforeValue = /"((?:[^"\\]|\\.)+)":(")?$/;

function splitTemplate(template: string): { literals: string[]; variables: string[] } {
  const literals: string[] = [];
  const variables: string[] = [];
  let last = 0;
  for (const match of template.matchAll(variablePattern)) {
    literals.push(template.slice(last, match.index));
    variables.push(match[1] ?? match[2] ?? '');
    last = match.index + match[0].length;
  }
  literals.push(template.slice(last));
  return { literals, variables };
}

function toJsonKey(name: string, raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    throw new ParseError(
      `log_format ${name}`,
      undefined,
      `key ${JSON.stringify(raw)} is not a valid JSON string; fix its escapes`,
    );
  }
}

function toFields(name: string, literals: string[], variables: string[]): LogFormatField[] {
  return variables.map((variable, index) => {
    const match = keyBeforeValue.exec(literals[index] ?? '');
    const quoted = match?.[2] === '"';
    if (match === null || (quoted && !(literals[index + 1] ?? '').startsWith('"'))) {
      throw new ParseError(
        `log_format ${name}`,
        undefined,
        `$${variable} is not a whole JSON value ("key":$var or "key":"$var"); give each variable its own key`,
      );
    }
    return { key: toJsonKey(name, match[1] ?? ''), variable, quoted };
  });
}

function checkJsonShape(spec: LogFormatSpec): void {
  const sample = spec.literals.reduce((text, literal, index) => {
    const field = spec.fields[index - 1];
    return text + (field === undefined ? '' : field.quoted ? 'x' : '0') + literal;
  }, '');
  try {
    JSON.parse(sample);
  } catch (error) {
    throw new ParseError(
      `log_format ${spec.name}`,
      undefined,
      `the format does not produce JSON (${errorMessage(error)}); fix the quoting in the conf`,
    );
  }
}

/** Finds `log_format <name> …;` in an nginx conf text and derives its field spec. Throws ParseError naming the fix. */
export function parseLogFormat(confText: string, name: string): LogFormatSpec {
  const tokens = tokenizeNginxConf(confText);
  const start = tokens.findIndex((token, index) => token === 'log_format' && tokens[index + 1] === name);
  if (start < 0)
    throw new ParseError(
      'nginx conf',
      undefined,
      `no \`log_format ${name}\` directive; add the one from .builders/nginx-sccache.conf`,
    );
  const end = tokens.indexOf(';', start);
  let args = tokens.slice(start + 2, end < 0 ? tokens.length : end);
  let escape: LogFormatSpec['escape'] = 'default';
  const escapeArg = /^escape=(default|json|none)$/.exec(args[0] ?? '');
  if (escapeArg !== null) {
    escape = escapeArg[1] as LogFormatSpec['escape'];
    args = args.slice(1);
  }
  const template = args.join('');
  const { literals, variables } = splitTemplate(template);
  const spec = { name, escape, template, literals, fields: toFields(name, literals, variables) };
  checkJsonShape(spec);
  return spec;
}

/** The location (e.g. `/sccache/`) of the block that enables WebDAV (`dav_methods`), or undefined. */
export function parseDavLocation(confText: string): string | undefined {
  const tokens = tokenizeNginxConf(confText);
  let current: string | undefined;
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i] === 'location' && tokens[i + 2] === '{') current = tokens[i + 1];
    if (tokens[i] === 'dav_methods' && current !== undefined) return current;
  }
  return undefined;
}
