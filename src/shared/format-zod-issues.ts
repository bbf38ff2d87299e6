// zod issues as `path.to.key: message`, joined on one line (fleet.yaml has its own, friendlier formatIssues in
// config/). Structural type: shared/ does not import zod.

export interface ZodIssueLike {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

export interface FormatZodIssuesOptions {
  /** At most this many issues (default 5). */
  limit?: number;
  /** What an issue at the top level is called (default `(root)`). */
  root?: string;
  separator?: string;
}

/** `a.b: message; c: message`; '' when there are none. */
export function formatZodIssues(
  issues: readonly ZodIssueLike[],
  { limit = 5, root = '(root)', separator = '; ' }: FormatZodIssuesOptions = {},
): string {
  return issues
    .slice(0, limit)
    .map((issue) => `${issue.path.map(String).join('.') || root}: ${issue.message}`)
    .join(separator);
}
