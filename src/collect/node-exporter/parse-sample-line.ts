// One sample line of the Prometheus text format: `name{l1="v1",…} value [timestampMs]`, including the newer
// quoted-name form `{"dotted.name","a.b"="x"} 1`. Returns the sample, or a reason string when malformed.
// Hand-rolled character scanning: a ~60 KB node_exporter scrape must parse in well under a millisecond.

export interface MetricSample {
  name: string;
  /** A null-prototype record, so a label called `__proto__` is just a label. */
  labels: Record<string, string>;
  value: number;
  timestampMs: number | undefined;
}

interface Cursor {
  line: string;
  pos: number;
}

export function parseSampleLine(line: string): MetricSample | string {
  const cursor: Cursor = { line, pos: 0 };
  let name = takeBareName(cursor, true);
  const labels = Object.create(null) as Record<string, string>;
  if (line.charCodeAt(cursor.pos) === 123 /* { */) {
    cursor.pos += 1;
    const labelResult = parseLabels(cursor, labels, name === '');
    if (labelResult.error !== undefined) return labelResult.error;
    if (labelResult.quotedName !== undefined) name = labelResult.quotedName;
  } else if (cursor.pos < line.length && !isBlank(line.charCodeAt(cursor.pos))) {
    return `unexpected character ${JSON.stringify(line[cursor.pos])} in metric name`;
  }
  if (name === '') return 'missing metric name';
  return parseValueAndTimestamp(cursor, name, labels);
}

function parseValueAndTimestamp(
  cursor: Cursor,
  name: string,
  labels: Record<string, string>,
): MetricSample | string {
  const valueToken = takeToken(cursor);
  if (valueToken === '') return `missing value for ${name}`;
  const value = parseGoFloat(valueToken);
  if (value === undefined) return `invalid value ${JSON.stringify(valueToken)} for ${name}`;
  const timestampToken = takeToken(cursor);
  let timestampMs: number | undefined;
  if (timestampToken !== '') {
    timestampMs = Number(timestampToken);
    if (!Number.isSafeInteger(timestampMs))
      return `invalid timestamp ${JSON.stringify(timestampToken)} for ${name}`;
  }
  if (takeToken(cursor) !== '') return `unexpected text after the value of ${name}`;
  return { name, labels, value, timestampMs };
}

/** Go `strconv.ParseFloat` as Prometheus uses it: decimal and exponent forms, `NaN`, `±Inf`. */
export function parseGoFloat(token: string): number | undefined {
  const first = token.charCodeAt(0);
  const isDecimalStart = (first >= 48 && first <= 57) || first === 46 || first === 45 || first === 43;
  if (isDecimalStart) {
    const value = Number(token);
    if (!Number.isNaN(value) && isPlainDecimal(token)) return value;
  }
  switch (token.toLowerCase()) {
    case 'nan':
    case '+nan':
    case '-nan':
      return Number.NaN;
    case 'inf':
    case '+inf':
    case 'infinity':
    case '+infinity':
      return Number.POSITIVE_INFINITY;
    case '-inf':
    case '-infinity':
      return Number.NEGATIVE_INFINITY;
    default:
      return undefined;
  }
}

// Number() also accepts hex/octal/binary integer literals ("0x1f"), which Go's ParseFloat rejects.
function isPlainDecimal(token: string): boolean {
  const second = token.charCodeAt(token[0] === '-' || token[0] === '+' ? 2 : 1);
  return !(
    second === 120 ||
    second === 88 ||
    second === 111 ||
    second === 79 ||
    second === 98 ||
    second === 66
  );
}

function takeToken(cursor: Cursor): string {
  const { line } = cursor;
  while (cursor.pos < line.length && isBlank(line.charCodeAt(cursor.pos))) cursor.pos += 1;
  const start = cursor.pos;
  while (cursor.pos < line.length && !isBlank(line.charCodeAt(cursor.pos))) cursor.pos += 1;
  return line.slice(start, cursor.pos);
}

function takeBareName(cursor: Cursor, allowColon: boolean): string {
  const { line } = cursor;
  const start = cursor.pos;
  while (
    cursor.pos < line.length &&
    isNameChar(line.charCodeAt(cursor.pos), cursor.pos === start, allowColon)
  ) {
    cursor.pos += 1;
  }
  return line.slice(start, cursor.pos);
}

interface LabelsResult {
  error?: string;
  quotedName?: string;
}

function parseLabels(cursor: Cursor, labels: Record<string, string>, nameMissing: boolean): LabelsResult {
  const { line } = cursor;
  const result: LabelsResult = {};
  for (;;) {
    skipBlanks(cursor);
    const code = line.charCodeAt(cursor.pos);
    if (code === 125 /* } */) {
      cursor.pos += 1;
      return result;
    }
    if (Number.isNaN(code)) return { error: 'unterminated label set' };
    const quoted = code === 34;
    const labelName = quoted ? parseQuoted(cursor) : takeBareName(cursor, false);
    if (labelName === undefined || (!quoted && labelName === ''))
      return { error: `invalid label name at column ${cursor.pos + 1}` };
    skipBlanks(cursor);
    const next = line.charCodeAt(cursor.pos);
    if (quoted && nameMissing && result.quotedName === undefined && (next === 44 || next === 125)) {
      result.quotedName = labelName;
    } else {
      const error = parseLabelValue(cursor, labels, labelName);
      if (error !== undefined) return { error };
    }
    skipBlanks(cursor);
    const separator = line.charCodeAt(cursor.pos);
    if (separator === 44 /* , */) cursor.pos += 1;
    else if (separator !== 125) return { error: `expected "," or "}" after label ${labelName}` };
  }
}

function parseLabelValue(
  cursor: Cursor,
  labels: Record<string, string>,
  labelName: string,
): string | undefined {
  if (cursor.line.charCodeAt(cursor.pos) !== 61 /* = */) return `expected "=" after label ${labelName}`;
  cursor.pos += 1;
  skipBlanks(cursor);
  if (cursor.line.charCodeAt(cursor.pos) !== 34) return `label ${labelName}: value must be double-quoted`;
  const value = parseQuoted(cursor);
  if (value === undefined) return `label ${labelName}: unterminated value`;
  labels[labelName] = value;
  return undefined;
}

/** Reads a double-quoted string at the cursor with the format's escapes (`\\`, `\"`, `\n`). */
function parseQuoted(cursor: Cursor): string | undefined {
  const { line } = cursor;
  const start = cursor.pos + 1;
  const close = line.indexOf('"', start);
  const escape = line.indexOf('\\', start);
  if (close !== -1 && (escape === -1 || escape > close)) {
    cursor.pos = close + 1;
    return line.slice(start, close);
  }
  let out = '';
  let i = start;
  while (i < line.length) {
    const c = line[i];
    if (c === '"') {
      cursor.pos = i + 1;
      return out;
    }
    if (c === '\\' && i + 1 < line.length) {
      const e = line[i + 1];
      out += e === 'n' ? '\n' : e === '\\' || e === '"' ? e : `\\${e}`;
      i += 2;
    } else {
      out += c;
      i += 1;
    }
  }
  return undefined;
}

function skipBlanks(cursor: Cursor): void {
  while (cursor.pos < cursor.line.length && isBlank(cursor.line.charCodeAt(cursor.pos))) cursor.pos += 1;
}

function isBlank(code: number): boolean {
  return code === 32 || code === 9;
}

function isNameChar(code: number, first: boolean, allowColon: boolean): boolean {
  if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95) return true;
  if (code === 58) return allowColon;
  return !first && code >= 48 && code <= 57;
}
