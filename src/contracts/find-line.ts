// Line lookups for messages: every problem names a file and, where there is one, a line.

/** 1-based line of a character offset. @internal */
export function toLineNumber(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i += 1) if (text.charCodeAt(i) === 10) line += 1;
  return line;
}

/** 1-based line of the first match of `pattern` at or after `fromOffset`, or undefined. */
export function findLine(text: string, pattern: RegExp | string, fromOffset = 0): number | undefined {
  const rest = text.slice(fromOffset);
  const index = typeof pattern === 'string' ? rest.indexOf(pattern) : rest.search(pattern);
  return index < 0 ? undefined : toLineNumber(text, fromOffset + index);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Line of a key inside a JSON object section, e.g. `"pytorch": {` under `"target"`. */
export function findJsonKeyLine(text: string, key: string, sectionKey?: string): number | undefined {
  const from = sectionKey === undefined ? 0 : Math.max(0, text.indexOf(`"${sectionKey}"`));
  return findLine(text, new RegExp(`"${escapeRegExp(key)}"\\s*:`), from);
}
