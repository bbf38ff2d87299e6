// OCI distribution routes, from a logged request path (path plus raw query). Repository names may contain `/`,
// so the path is split at the LAST `/blobs/`, `/manifests/`, `/tags/list` or `/referrers/`.

export type RegistryRoute =
  | { kind: 'blob'; repository: string; digest: string }
  | { kind: 'upload-start'; repository: string; digest: string | undefined; mount: string | undefined }
  | { kind: 'upload'; repository: string; uuid: string; digest: string | undefined }
  | { kind: 'manifest'; repository: string; reference: string }
  | { kind: 'tags'; repository: string }
  | { kind: 'referrers'; repository: string }
  | { kind: 'other' };

const other: RegistryRoute = { kind: 'other' };

/** decodeURIComponent, or the text itself when it is not valid percent-encoding; `%3A` alone (digests) is quick. */
function decodeSafely(text: string): string {
  const percent = text.indexOf('%');
  if (percent < 0) return text;
  if (
    text.indexOf('%', percent + 1) < 0 &&
    text.charCodeAt(percent + 1) === 51 &&
    (text.charCodeAt(percent + 2) | 32) === 97
  ) {
    return `${text.slice(0, percent)}:${text.slice(percent + 3)}`;
  }
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The first `name=value` pair's value of a raw query (`+` is a space), '' for a bare `name`, else undefined. */
function findQueryParam(query: string, name: string): string | undefined {
  if (query === '' || !query.includes(name)) return undefined;
  for (let start = 0; start <= query.length;) {
    let end = query.indexOf('&', start);
    if (end < 0) end = query.length;
    const keyEnd = start + name.length;
    if (query.startsWith(name, start) && (keyEnd === end || query.charCodeAt(keyEnd) === 61)) {
      const value = keyEnd === end ? '' : query.slice(keyEnd + 1, end);
      return decodeSafely(value.includes('+') ? value.replaceAll('+', ' ') : value);
    }
    start = end + 1;
  }
  return undefined;
}

function toBlobRoute(repository: string, rest: string, query: string): RegistryRoute {
  if (rest === 'uploads' || rest === 'uploads/') {
    return {
      kind: 'upload-start',
      repository,
      digest: findQueryParam(query, 'digest'),
      mount: findQueryParam(query, 'mount'),
    };
  }
  if (rest.startsWith('uploads/')) {
    return {
      kind: 'upload',
      repository,
      uuid: rest.slice('uploads/'.length),
      digest: findQueryParam(query, 'digest'),
    };
  }
  return rest === '' || rest.includes('/') ? other : { kind: 'blob', repository, digest: decodeSafely(rest) };
}

const namePrefix = '/v2/';
const blobsPart = '/blobs/';
const manifestsPart = '/manifests/';

/**
 * The start of the last `part` lying wholly inside the name (path[4, end)) and not at its very start, else -1.
 * Searched in the path itself with forward indexOf (a fast built-in; lastIndexOf is not): this runs once per line.
 */
function findLastPart(path: string, part: string, end: number): number {
  let found = -1;
  for (
    let at = path.indexOf(part, namePrefix.length + 1);
    at >= 0 && at + part.length <= end;
    at = path.indexOf(part, at + 1)
  )
    found = at;
  return found;
}

/** The route of a `/v2/…` request path; `{ kind: 'other' }` for anything else (catalog, base, non-OCI). */
export function parseRegistryPath(pathWithQuery: string): RegistryRoute {
  if (!pathWithQuery.startsWith(namePrefix)) return other;
  const questionMark = pathWithQuery.indexOf('?');
  const end = questionMark < 0 ? pathWithQuery.length : questionMark;
  const query = questionMark < 0 ? '' : pathWithQuery.slice(questionMark + 1);
  const blobs = findLastPart(pathWithQuery, blobsPart, end);
  const manifests = findLastPart(pathWithQuery, manifestsPart, end);
  if (blobs > manifests) {
    const rest = pathWithQuery.slice(blobs + blobsPart.length, end);
    return toBlobRoute(pathWithQuery.slice(namePrefix.length, blobs), rest, query);
  }
  if (manifests > 0) {
    const reference = decodeSafely(pathWithQuery.slice(manifests + manifestsPart.length, end));
    return reference === '' || reference.includes('/')
      ? other
      : { kind: 'manifest', repository: pathWithQuery.slice(namePrefix.length, manifests), reference };
  }
  const name = pathWithQuery.slice(namePrefix.length, end);
  if (name.endsWith('/tags/list') && name.length > 10)
    return { kind: 'tags', repository: name.slice(0, -10) };
  const referrers = name.lastIndexOf('/referrers/');
  return referrers > 0 ? { kind: 'referrers', repository: name.slice(0, referrers) } : other;
}
