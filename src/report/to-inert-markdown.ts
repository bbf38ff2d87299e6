// Markdown we render (report.md, the diff) holds names from run files: a target, node or namespace may be
// anything. A forge renders raw HTML in markdown, so no `<` of ours may reach it: every one becomes `&lt;`, which
// shows as `<` in text. Code spans included, where it shows as `&lt;`: a code span cannot be trusted to stay one
// (a name may hold backticks), and none of ours holds a `<`. Pure.

/** The markdown with every `<` written as `&lt;`, so it holds no raw HTML. */
export function toInertMarkdown(markdown: string): string {
  return markdown.replaceAll('<', '&lt;');
}
