import { renderPageShell } from './render-page-shell.js';
import { escapeHtml } from '../shared/escape-html.js';

// The list of runs, newest first, with a selector: serve's `/` and publish's top page. The selector's script is
// an external file (RUNS_INDEX_SCRIPT), so the page runs under a CSP with no inline script; the list of links
// works without it.

interface RunListItem {
  stamp: string;
  href: string;
  harness: string;
  lane: string;
  status: string;
  namespace: string | null;
}

const STYLE =
  'body{font:14px system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:16px;color:#222}li{margin:3px 0}li span{color:#666}select{font-size:14px;min-width:28em}';

export const RUNS_INDEX_SCRIPT_NAME = 'runs-index.js';
export const RUNS_INDEX_SCRIPT = `(function(){var s=document.getElementById('run-select');if(s)s.addEventListener('change',function(){if(s.value)location.href=s.value;});})();\n`;

export interface RenderRunsIndexOptions {
  title: string;
  runs: readonly RunListItem[];
  /** Where runs-index.js lives, relative to the page. */
  assetBase: string;
  /** One line under the title, e.g. what serve exposes. */
  note?: string;
  /** Link to the trends page (makespan, build seconds and bytes across runs), when there is one. */
  trendsHref?: string;
  /** Filter links and paging (serve's paged index), already escaped; replaces the count line when given. */
  nav?: { filters: string; count: string; pages: string };
}

export function renderRunsIndex({
  title,
  runs,
  assetBase,
  note,
  trendsHref,
  nav,
}: RenderRunsIndexOptions): string {
  const label = (r: RunListItem): string =>
    `${r.stamp} — ${r.harness}, lane ${r.lane}${r.namespace ? ` (${r.namespace})` : ''}, ${r.status}`;
  const options = runs
    .map((r) => `<option value="${escapeHtml(r.href)}">${escapeHtml(label(r))}</option>`)
    .join('');
  const items = runs
    .map(
      (r) =>
        `<li><a href="${escapeHtml(r.href)}">${escapeHtml(r.stamp)}</a> <span>${escapeHtml(r.harness)} · lane ${escapeHtml(r.lane)}${r.namespace ? ` · ${escapeHtml(r.namespace)}` : ''} · ${escapeHtml(r.status)}</span></li>`,
    )
    .join('\n');
  const body = `<h1>${escapeHtml(title)}</h1>
${note ? `<p>${escapeHtml(note)}</p>` : ''}
${trendsHref ? `<p><a id="trends-link" href="${escapeHtml(trendsHref)}">Trends across runs</a>: makespan, per-target build seconds and bytes for each harness, regressions flagged.</p>` : ''}
<p><label for="run-select">Run: </label><select id="run-select"><option value="">choose a run (newest first)…</option>${options}</select></p>
${nav ? nav.filters : ''}
<p>${nav ? nav.count : `${runs.length} run${runs.length === 1 ? '' : 's'}`}, newest first. Numbers from cold, warm and bench runs answer different questions; each page says which harness produced it.</p>
<ul id="runs">
${items}
</ul>
${nav ? nav.pages : ''}
<script src="${escapeHtml(assetBase)}${RUNS_INDEX_SCRIPT_NAME}"></script>`;
  return renderPageShell({ title, style: STYLE, body });
}
