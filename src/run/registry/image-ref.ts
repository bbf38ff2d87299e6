// Image references as they appear in bake prints (`docker-image://…` contexts, `tags`). Pure.

export interface ImageRef {
  /** Registry host[:port]; `docker.io` when the reference names none. */
  host: string;
  /** Repository path, e.g. `rocm/pytorch`. */
  repository: string;
  /** Tag or digest (`sha256:…`); `latest` when absent. */
  reference: string;
}

const isHost = (segment: string) => segment.includes('.') || segment.includes(':') || segment === 'localhost';

export function parseImageRef(text: string): ImageRef {
  const bare = text.replace(/^docker-image:\/\//, '');
  const [first = '', ...rest] = bare.split('/');
  const host = rest.length > 0 && isHost(first) ? first : 'docker.io';
  let path = host === 'docker.io' && !(rest.length > 0 && isHost(first)) ? bare : rest.join('/');
  let reference = 'latest';
  const at = path.indexOf('@');
  if (at >= 0) {
    reference = path.slice(at + 1);
    path = path.slice(0, at);
  } else {
    const colon = path.lastIndexOf(':');
    if (colon > path.lastIndexOf('/')) {
      reference = path.slice(colon + 1);
      path = path.slice(0, colon);
    }
  }
  const repository = host === 'docker.io' && !path.includes('/') ? `library/${path}` : path;
  return { host, repository, reference };
}

export function renderImageRef(ref: ImageRef): string {
  const separator = ref.reference.includes(':') ? '@' : ':';
  return `${ref.host}/${ref.repository}${separator}${ref.reference}`;
}

/** Moves a reference from the live namespace (its first path segment) into the run's namespace. */
export function toNamespace(ref: ImageRef, { from, to }: { from: string; to: string }): ImageRef {
  const [first, ...rest] = ref.repository.split('/');
  if (first !== from || rest.length === 0) return ref;
  return { ...ref, repository: [to, ...rest].join('/') };
}
