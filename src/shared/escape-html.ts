// The one escape for text put into HTML, SVG or an attribute value: & < > " ' as numeric character references, which
// HTML and XML both read. Pure.

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
