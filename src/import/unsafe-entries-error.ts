import type { UnsafeEntry } from '../shared/open-run-file.js';
import { UsageError } from '../shared/errors.js';

/** The error `import` refuses a source with: every entry that is not what it should be, named (the first 10). */
export function buildUnsafeEntriesError({
  source,
  unsafe,
  what,
  hint,
}: {
  source: string;
  unsafe: readonly UnsafeEntry[];
  /** What each entry should have been, e.g. `a regular file of the run`. */
  what: string;
  hint: string;
}): UsageError {
  const listed = unsafe.slice(0, 10).map((entry) => `${entry.name} (${entry.reason})`);
  if (unsafe.length > 10) listed.push(`and ${unsafe.length - 10} more`);
  return new UsageError(
    `${source}: ${unsafe.length} entr${unsafe.length === 1 ? 'y is' : 'ies are'} not ${what}: ${listed.join(', ')}; nothing was imported`,
    { hint },
  );
}
