import { z } from 'zod';
import type { RunIndexEntry } from '../artifacts/index.js';
import { escapeHtml } from '../shared/escape-html.js';

// The filters of serve's paged index and trends (docs/history.md): lane, harness, arch, status, a date range
// (from/to, UTC days, inclusive), a page, and for trends whether the per-target series are shown (other keys, e.g. a
// cache-buster, are ignored, as before). Parsed from the
// query string with zod; a bad value is a 400 naming the key and the value. Pure.

const Word = z
  .string()
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, 'letters, digits, `.`, `_`, `:` or `-`');
const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a UTC day, YYYY-MM-DD')
  .refine((d) => Number.isFinite(Date.parse(`${d}T00:00:00Z`)), 'not a calendar day');

const QuerySchema = z
  .object({
    lane: Word.optional(),
    harness: Word.optional(),
    arch: Word.optional(),
    status: Word.optional(),
    from: Day.optional(),
    to: Day.optional(),
    page: z
      .string()
      .regex(/^\d{1,6}$/, 'a page number')
      .transform(Number)
      .pipe(z.number().min(1))
      .optional(),
    targets: z.enum(['0', '1']).optional(),
  })
  .strip();

export type HistoryQuery = z.infer<typeof QuerySchema>;

export const PAGE_SIZE = 100;

/** The query string of a URL → filters; an Error naming the key and value when one is bad. */
export function parseHistoryQuery(rawUrl: string): { query: HistoryQuery } | { error: string } {
  const search = rawUrl.includes('?') ? rawUrl.slice(rawUrl.indexOf('?') + 1).split('#')[0]! : '';
  const params = new URLSearchParams(search);
  const raw: Record<string, string> = {};
  for (const [key, value] of params) {
    if (key in raw) return { error: `${key} given twice` };
    if (value !== '') raw[key] = value;
  }
  const parsed = QuerySchema.safeParse(raw);
  if (parsed.success) return { query: parsed.data };
  const issue = parsed.error.issues[0]!;
  const key = String(issue.path[0] ?? (issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : ''));
  const value = key in raw ? ` ${JSON.stringify(raw[key]!.slice(0, 80))}` : '';
  return {
    error: `query ${key}${value}: ${issue.message} (filters: lane, harness, arch, status, from, to, page, targets)`,
  };
}

/** The status a viewer filters by: a damaged run is `damaged`. */
export const toStatus = (e: RunIndexEntry): string => (e.damaged === null ? e.status : 'damaged');

/** Entries passing the filters (the page is not applied). */
export function filterEntries(entries: readonly RunIndexEntry[], query: HistoryQuery): RunIndexEntry[] {
  const fromMs = query.from ? Date.parse(`${query.from}T00:00:00Z`) : -Infinity;
  const toMs = query.to ? Date.parse(`${query.to}T00:00:00Z`) + 86_400_000 : Infinity;
  return entries.filter(
    (e) =>
      (query.lane === undefined || e.lane === query.lane) &&
      (query.harness === undefined || e.harness === query.harness) &&
      (query.arch === undefined || e.arch === query.arch) &&
      (query.status === undefined || toStatus(e) === query.status) &&
      e.startedAtMs >= fromMs &&
      e.startedAtMs < toMs,
  );
}

/** A query string keeping the filters, with some changed (undefined drops a key). */
export function toQueryString(
  query: HistoryQuery,
  change: Partial<Record<keyof HistoryQuery, string | undefined>> = {},
): string {
  const merged: Record<string, string | number | undefined> = { ...query, ...change };
  const params = new URLSearchParams();
  for (const key of ['lane', 'harness', 'arch', 'status', 'from', 'to', 'targets', 'page'] as const) {
    const value = key in change ? change[key] : merged[key];
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The values each filter can take across all runs, for the filter links. */
export function listFacets(
  entries: readonly RunIndexEntry[],
): Record<'lane' | 'harness' | 'arch' | 'status', string[]> {
  const sets = {
    lane: new Set<string>(),
    harness: new Set<string>(),
    arch: new Set<string>(),
    status: new Set<string>(),
  };
  for (const e of entries) {
    sets.lane.add(e.lane);
    sets.harness.add(e.harness);
    if (e.arch !== null) sets.arch.add(e.arch);
    sets.status.add(toStatus(e));
  }
  const list = (set: Set<string>) => [...set].filter((v) => Word.safeParse(v).success).sort();
  return {
    lane: list(sets.lane),
    harness: list(sets.harness),
    arch: list(sets.arch),
    status: list(sets.status),
  };
}

/**
 * The filter links of a page (`base`: `/` or `/trends.html`): per filter, `all` and each value, each link keeping
 * the other filters (and dropping the page, which a new filter makes meaningless); the active value is bold.
 */
export function renderFilterNav(
  base: string,
  query: HistoryQuery,
  facets: ReturnType<typeof listFacets>,
): string {
  const rows = (['lane', 'harness', 'arch', 'status'] as const).map((key) => {
    const links = [undefined, ...facets[key]].map((value) => {
      const label = value ?? 'all';
      const active = query[key] === value;
      const href = `${base}${toQueryString(query, { [key]: value, page: undefined })}`;
      return active
        ? `<strong>${escapeHtml(label)}</strong>`
        : `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>`;
    });
    return `<li>${key}: ${links.join(' · ')}</li>`;
  });
  const range =
    query.from || query.to
      ? `<li>dates: ${escapeHtml(query.from ?? '…')} to ${escapeHtml(query.to ?? '…')} (UTC) · <a href="${escapeHtml(`${base}${toQueryString(query, { from: undefined, to: undefined, page: undefined })}`)}">all dates</a></li>`
      : '<li>dates: all (add <code>from=YYYY-MM-DD</code> and <code>to=YYYY-MM-DD</code> to the address)</li>';
  return `<ul class="filters">${rows.join('')}${range}</ul>`;
}
