// The series a PromQL expression reads: each metric name it selects, with the label names its matchers use. Not a
// PromQL parser: a scanner that knows enough of the grammar (strings, comments, `{…}` matchers, `[…]` ranges,
// numbers and durations, function and aggregation calls, grouping lists after by/without/on/ignoring/group_left/
// group_right, the binary keywords) to tell a metric name from everything else. Pure.

export interface PromqlSelector {
  name: string;
  /** Label names the selector's matchers name (`{lane="x", runs_ago=~"1|2"}` → lane, runs_ago). */
  labels: string[];
  /** Offset of the name in the expression. */
  offset: number;
}

const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan', 'atan2']);
const GROUPING = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);
const IDENTIFIER = /[a-zA-Z_:][a-zA-Z0-9_:]*/y;
const NUMBER = /(0x[0-9a-fA-F]+|[0-9][0-9a-zA-Z_.]*([eE][+-]?[0-9]+)?)/y;

/** Strings and comments blanked (same length), so nothing inside them is read as a name or a bracket. */
function blankStringsAndComments(expr: string): string {
  let out = '';
  let index = 0;
  while (index < expr.length) {
    const char = expr[index]!;
    if (char === '"' || char === "'" || char === '`') {
      let end = index + 1;
      while (end < expr.length && expr[end] !== char) end += char !== '`' && expr[end] === '\\' ? 2 : 1;
      out +=
        char +
        ' '.repeat(Math.max(0, Math.min(end, expr.length) - index - 1)) +
        (end < expr.length ? char : '');
      index = end + 1;
    } else if (char === '#') {
      const end = expr.indexOf('\n', index);
      const stop = end === -1 ? expr.length : end;
      out += ' '.repeat(stop - index);
      index = stop;
    } else {
      out += char;
      index += 1;
    }
  }
  return out;
}

function skipSpace(text: string, index: number): number {
  while (index < text.length && /\s/.test(text[index]!)) index += 1;
  return index;
}

/** Index just past the bracket that closes the one at `open`. */
function findClose(text: string, open: number): number {
  const pairs: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
  const closer = pairs[text[open]!]!;
  let depth = 0;
  for (let index = open; index < text.length; index += 1) {
    if (text[index] === text[open]) depth += 1;
    else if (text[index] === closer && (depth -= 1) === 0) return index + 1;
  }
  return text.length;
}

/** Label names of a `{…}` matcher list (the text between the braces, strings already blanked). */
function readMatcherLabels(inside: string): string[] {
  return [...inside.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)/g)].map((m) => m[1]!);
}

export function findPromqlSelectors(expr: string): PromqlSelector[] {
  const text = blankStringsAndComments(expr);
  const selectors: PromqlSelector[] = [];
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '[') {
      index = findClose(text, index);
      continue;
    }
    if (char === '{') {
      // A selector without a name (`{__name__=…}`): nothing to name.
      index = findClose(text, index);
      continue;
    }
    NUMBER.lastIndex = index;
    if (/[0-9]/.test(char) && NUMBER.test(text)) {
      index = NUMBER.lastIndex;
      continue;
    }
    IDENTIFIER.lastIndex = index;
    const match = /[a-zA-Z_:]/.test(char) ? IDENTIFIER.exec(text) : null;
    if (!match) {
      index += 1;
      continue;
    }
    const word = match[0];
    const after = skipSpace(text, index + word.length);
    if (GROUPING.has(word.toLowerCase())) {
      index = text[after] === '(' ? findClose(text, after) : after;
      continue;
    }
    // A call (`rate(`), an aggregation with its grouping first (`sum by (lane) (`), or a keyword.
    if (
      text[after] === '(' ||
      /^(by|without)\s*\(/i.test(text.slice(after)) ||
      KEYWORDS.has(word.toLowerCase())
    ) {
      index += word.length;
      continue;
    }
    if (text[after] === '{') {
      const close = findClose(text, after);
      selectors.push({
        name: word,
        labels: readMatcherLabels(text.slice(after + 1, close - 1)),
        offset: index,
      });
      index = close;
      continue;
    }
    selectors.push({ name: word, labels: [], offset: index });
    index += word.length;
  }
  return selectors;
}
