/** Index of the first positional argument, skipping the values of the given string flags (`--builder x`). */
export function findSubcommandIndex(argv: readonly string[], stringFlags: readonly string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return i + 1 < argv.length ? i + 1 : -1;
    if (!arg.startsWith('-')) return i;
    if (stringFlags.includes(arg.replace(/^--?/, ''))) i++;
  }
  return -1;
}
