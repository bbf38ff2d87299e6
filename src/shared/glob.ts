// Shell-style wildcards as regular expressions: `*` matches any run of characters (including `/`), `?` one
// character, everything else is literal. Used by the registry's cache patterns and by known_hosts host patterns.

export function toGlobRegExp(pattern: string, options: { ignoreCase?: boolean } = {}): RegExp {
  const body = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replaceAll('*', '.*')
    .replaceAll('?', '.');
  return new RegExp(`^${body}$`, options.ignoreCase ? 'si' : 's');
}
