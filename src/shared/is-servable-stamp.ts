// The names of run dirs serve answers and the run index may name (a leaf: serve's router and report's run index
// both hold names to it). Pure.

/**
 * Whether serve answers a run dir of this name, so lists it: one path segment of at most 255 bytes, not hidden
 * (no leading `.`), without control characters, `/`, `\\` or a `%xx` the router would take for double encoding.
 */
export function isServableStamp(name: string): boolean {
  return (
    name.length > 0 &&
    Buffer.byteLength(name) <= 255 &&
    !name.startsWith('.') &&
    ![...name].some((c) => c.charCodeAt(0) < 0x20 || c === '\x7f' || c === '/' || c === '\\') &&
    !/%[0-9a-f]{2}/i.test(name)
  );
}
