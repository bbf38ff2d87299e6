// `host:port/repo/name:tag` or `…@sha256:…` → parts. The box's registry is plain http.

export interface ImageRef {
  host: string;
  repository: string;
  reference: string;
}

export function parseImageRef(text: string): ImageRef {
  const ref = text.replace(/^docker-image:\/\//, '');
  const slash = ref.indexOf('/');
  if (slash === -1) throw new Error(`${text}: expected <registry>/<repository>[:tag]`);
  const host = ref.slice(0, slash);
  let rest = ref.slice(slash + 1);
  let reference = 'latest';
  const at = rest.indexOf('@');
  if (at !== -1) {
    reference = rest.slice(at + 1);
    rest = rest.slice(0, at);
  } else {
    const colon = rest.lastIndexOf(':');
    if (colon !== -1) {
      reference = rest.slice(colon + 1);
      rest = rest.slice(0, colon);
    }
  }
  return { host, repository: rest, reference };
}

export function toRegistryUrl(
  ref: ImageRef,
  kind: 'manifests' | 'blobs' | 'uploads',
  reference?: string,
): string {
  const base = `http://${ref.host}/v2/${ref.repository}`;
  if (kind === 'uploads') return `${base}/blobs/uploads/`;
  return `${base}/${kind}/${reference ?? ref.reference}`;
}
