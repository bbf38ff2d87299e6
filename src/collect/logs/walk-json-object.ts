// A one-pass walker over a JSON object's top level: it checks the structure (keys, values, nesting, commas) and
// records where the wanted keys' values are, without building objects. Cheaper than JSON.parse on long log lines;
// the caller decodes only the values it needs. Returns -1 on anything that is not well-formed JSON structure.

const QUOTE = 34;
const BACKSLASH = 92;

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

function skipSpace(text: string, index: number): number {
  while (isSpace(text.charCodeAt(index))) index++;
  return index;
}

// JSON forbids raw control characters inside strings; matching them is the point here.
// eslint-disable-next-line no-control-regex
const invalidInString = /[\u0000-\u001f]|\\(?!["\\/bfnrt]|u[0-9a-fA-F]{4})/;

/** Index just past the closing quote of the string opening at `index`, or -1 (also for a bad escape or control char). */
export function skipString(text: string, index: number): number {
  let end = text.indexOf('"', index + 1);
  let sawBackslash = false;
  while (end > 0 && text.charCodeAt(end - 1) === BACKSLASH) {
    sawBackslash = true;
    let backslashes = 1;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) break;
    end = text.indexOf('"', end + 1);
  }
  if (end < 0) return -1;
  if (sawBackslash || hasControlOrBackslash(text, index + 1, end)) {
    if (invalidInString.test(text.slice(index + 1, end))) return -1;
  }
  return end + 1;
}

const scalarPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

function skipScalar(text: string, index: number): number {
  // Fast path: a plain non-negative integer followed by a delimiter (most log numbers).
  let end = index;
  let code = text.charCodeAt(end);
  if (code >= 49 && code <= 57) {
    do code = text.charCodeAt(++end);
    while (code >= 48 && code <= 57);
    if (code === 44 || code === 125 || code === 93) return end;
  }
  scalarPattern.lastIndex = index;
  return scalarPattern.test(text) ? scalarPattern.lastIndex : -1;
}

/** Wanted keys grouped by length, so matching a key costs an array look-up and a startsWith, no allocation. */
export interface KeySet {
  names: (string[] | undefined)[];
  slots: (number[] | undefined)[];
}

export function createKeySet(names: readonly string[]): KeySet {
  const set: KeySet = { names: [], slots: [] };
  names.forEach((name, slot) => {
    (set.names[name.length] ??= []).push(name);
    (set.slots[name.length] ??= []).push(slot);
  });
  return set;
}

function findSlot(text: string, keyStart: number, keyEnd: number, keys: KeySet): number | undefined {
  const names = keys.names[keyEnd - keyStart];
  if (names === undefined) return undefined;
  for (let i = 0; i < names.length; i++)
    if (text.startsWith(names[i] ?? '', keyStart)) return keys.slots[keyEnd - keyStart]?.[i];
  return undefined;
}

function skipArray(text: string, index: number, depth: number): number {
  index = skipSpace(text, index + 1);
  if (text.charCodeAt(index) === 93) return index + 1;
  for (;;) {
    index = skipValue(text, index, depth + 1);
    if (index < 0) return -1;
    index = skipSpace(text, index);
    const code = text.charCodeAt(index);
    if (code === 93) return index + 1;
    if (code !== 44) return -1;
    index = skipSpace(text, index + 1);
  }
}

/** Index just past the JSON value at `index`, or -1. */
export function skipValue(text: string, index: number, depth = 0): number {
  if (depth > 64) return -1;
  const code = text.charCodeAt(index);
  if (code === QUOTE) return skipString(text, index);
  if (code === 123) return walkJsonObject(text, index, undefined, undefined, depth + 1);
  if (code === 91) return skipArray(text, index, depth);
  return skipScalar(text, index);
}

/** The text of a JSON string literal's inside, unescaped; undefined for an invalid escape or a raw control char. */
export function decodeJsonString(raw: string): string | undefined {
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return undefined;
  }
}

/** The JSON string or scalar between start and end (as found by walkJsonObject), decoded; undefined if absent. */
export function readWalkedValue(text: string, found: Int32Array, slot: number): unknown {
  const start = found[2 * slot] ?? -1;
  const end = found[2 * slot + 1] ?? -1;
  if (start < 0) return undefined;
  const code = text.charCodeAt(start);
  if (code === QUOTE) {
    const raw = text.slice(start + 1, end - 1);
    return decodeJsonString(raw);
  }
  if (code === 123 || code === 91) return text.slice(start, end);
  const scalar = text.slice(start, end);
  return scalar === 'true' ? true : scalar === 'false' ? false : scalar === 'null' ? null : Number(scalar);
}

function hasBackslash(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (text.charCodeAt(i) === BACKSLASH) return true;
  return false;
}

function hasControlOrBackslash(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code < 32 || code === BACKSLASH) return true;
  }
  return false;
}

/** The slot of the key text[keyStart, keyEnd) in `wanted`; -1 for an invalid escape in the key. */
function findWantedSlot(text: string, keyStart: number, keyEnd: number, wanted: KeySet): number | undefined {
  const slot = findSlot(text, keyStart, keyEnd, wanted);
  if (slot !== undefined || !hasBackslash(text, keyStart, keyEnd)) return slot;
  const key = decodeJsonString(text.slice(keyStart, keyEnd));
  if (key === undefined) return -1;
  return findSlot(key, 0, key.length, wanted);
}

/**
 * Walks the object opening at `index`. For each key in `wanted` (see createKeySet; slot = index in its names), stores the value's start and end at
 * `found[2*slot]`, `found[2*slot+1]` (callers pre-fill with -1). Returns the index past the closing brace, or -1.
 */
export function walkJsonObject(
  text: string,
  index: number,
  wanted: KeySet | undefined,
  found: Int32Array | undefined,
  depth = 0,
): number {
  if (text.charCodeAt(index) !== 123) return -1;
  index = skipSpace(text, index + 1);
  if (text.charCodeAt(index) === 125) return index + 1;
  for (;;) {
    if (text.charCodeAt(index) !== QUOTE) return -1;
    const keyEnd = skipString(text, index);
    if (keyEnd < 0) return -1;
    const slot = wanted === undefined ? undefined : findWantedSlot(text, index + 1, keyEnd - 1, wanted);
    if (slot === -1) return -1;
    index = skipSpace(text, keyEnd);
    if (text.charCodeAt(index) !== 58) return -1;
    const valueStart = skipSpace(text, index + 1);
    index = skipValue(text, valueStart, depth);
    if (index < 0) return -1;
    if (slot !== undefined && found !== undefined) {
      found[2 * slot] = valueStart;
      found[2 * slot + 1] = index;
    }
    index = skipSpace(text, index);
    const code = text.charCodeAt(index);
    if (code === 125) return index + 1;
    if (code !== 44) return -1;
    index = skipSpace(text, index + 1);
  }
}
