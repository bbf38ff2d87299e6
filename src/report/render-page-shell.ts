import { escapeHtml } from '../shared/escape-html.js';

// The HTML page shell every page of ours shares (report index.html, the runs list, trends.html): doctype, head
// with charset, viewport, an empty favicon (no /favicon.ico request), the title and the page's own style. Pure.

export interface RenderPageShellOptions {
  /** Plain text; escaped here. */
  title: string;
  /** CSS, inlined in a <style> element. */
  style: string;
  /** The body's content, already HTML. */
  body: string;
}

export function renderPageShell({ title, style, body }: RenderPageShellOptions): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
${body}
</body>
</html>
`;
}
