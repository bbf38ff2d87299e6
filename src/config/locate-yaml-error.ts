// One YAML syntax mistake makes the parser report several errors, the first often a line or more after the
// mistake (an unclosed quote is noticed at the end of the file). This picks the one line to show and says what is
// wrong there in plain words. Pure: the text and the parser's errors in, one problem out.

export interface YamlSyntaxError {
  /** 1-based line the parser reported. */
  line: number;
  /** The parser's code, e.g. MISSING_CHAR, TAB_AS_INDENT, BAD_INDENT. */
  code: string;
  message: string;
}

export interface LocatedYamlError {
  line: number;
  message: string;
}

/** The first line (up to `lastLine`) that opens a quote, `[` or `{` the same line does not close, if any. */
function findUnclosedOpener(lines: readonly string[], lastLine: number): LocatedYamlError | undefined {
  for (let index = 0; index < Math.min(lines.length, lastLine); index += 1) {
    const text = lines[index] ?? '';
    let quote: string | undefined;
    let depth = 0;
    let opener = '';
    for (let at = 0; at < text.length; at += 1) {
      const char = text[at]!;
      if (quote) {
        if (char === quote && text[at - 1] !== '\\') quote = undefined;
        continue;
      }
      if (char === '#' && (at === 0 || /\s/.test(text[at - 1]!))) break;
      if ((char === '"' || char === "'") && (at === 0 || /[\s:[{,]/.test(text[at - 1]!))) quote = char;
      else if (char === '[' || char === '{') {
        if (depth === 0) opener = char;
        depth += 1;
      } else if (char === ']' || char === '}') depth -= 1;
    }
    if (quote) return { line: index + 1, message: `the ${quote} quote opened here is never closed` };
    if (depth > 0)
      return { line: index + 1, message: `the ${opener} opened here is never closed on this line` };
  }
  return undefined;
}

const indentOf = (text: string): number => /^ */.exec(text)?.[0].length ?? 0;

/**
 * A line indented deeper than the `key: value` line above it continues that value, which YAML reads as one long
 * key: the deeper line is the mistake.
 */
function findOverIndent(lines: readonly string[], line: number): LocatedYamlError | undefined {
  const above = lines[line - 1] ?? '';
  const next = lines[line] ?? '';
  if (/^\s*(- )?[\w.-]+:\s+\S/.test(above) && next.trim() !== '' && indentOf(next) > indentOf(above))
    return {
      line: line + 1,
      message: `indented deeper than \`${above.trim()}\` above it; align it with that key`,
    };
  return undefined;
}

export function locateYamlError(
  text: string,
  errors: readonly YamlSyntaxError[],
): LocatedYamlError | undefined {
  const first = [...errors].sort((a, b) => a.line - b.line)[0];
  if (!first) return undefined;
  const lines = text.split('\n');
  const unclosed = findUnclosedOpener(lines, first.line);
  if (unclosed) return unclosed;
  if (first.code === 'TAB_AS_INDENT')
    return { line: first.line, message: 'a tab in the indentation; indent with spaces' };
  if (first.code === 'DUPLICATE_KEY')
    return {
      line: first.line,
      message: `${first.message} (a missing \`- \` before a list item does this too)`,
    };
  const at = lines[first.line - 1] ?? '';
  if (/^\s*(- )?[\w.-]+:[^\s/]/.test(at) && !/^\s*(- )?[\w.-]+:\s/.test(at))
    return { line: first.line, message: `\`${at.trim()}\` needs a space after the colon` };
  const overIndent = /IMPLICIT_KEY|BAD_INDENT/.test(first.code)
    ? findOverIndent(lines, first.line)
    : undefined;
  return overIndent ?? { line: first.line, message: first.message };
}
