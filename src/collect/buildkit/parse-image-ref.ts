// Image references (`reg.lan:5000/rocm/cache:triton`) and registry API URLs (`/v2/<repo>/blobs|manifests/…`),
// normalised so a trace's upload URL can be matched against the bake file's cache-to refs and image tags.

export interface ImageRef {
  /** Registry host[:port], lower-case; `docker.io` for Docker Hub. */
  host: string;
  repository: string;
  tag: string | undefined;
}

export interface RegistryUrl {
  host: string;
  repository: string;
  /** `blobs` (upload, POST/PUT of layers) or `manifests`. */
  area: 'blobs' | 'manifests';
  /** The tag or digest after `/manifests/`; undefined for blobs. */
  reference: string | undefined;
}

const dockerHubHosts: ReadonlySet<string> = new Set(['docker.io', 'index.docker.io', 'registry-1.docker.io']);

export function parseImageRef(text: string): ImageRef | undefined {
  const withoutDigest = text.trim().split('@')[0] ?? '';
  if (withoutDigest === '') return undefined;
  const slash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.lastIndexOf(':');
  const tag = colon > slash ? withoutDigest.slice(colon + 1) : undefined;
  const name = colon > slash ? withoutDigest.slice(0, colon) : withoutDigest;
  const parts = name.split('/');
  const first = parts[0] ?? '';
  const hasHost = parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost');
  const host = normaliseHost(hasHost ? first : 'docker.io');
  let repository = (hasHost ? parts.slice(1) : parts).join('/');
  if (host === 'docker.io' && !repository.includes('/')) repository = `library/${repository}`;
  return repository === '' ? undefined : { host, repository, tag };
}

export function parseRegistryUrl(text: string): RegistryUrl | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const match = /^\/v2\/(.+?)\/(blobs|manifests)(?:\/([^/?]*))?/.exec(url.pathname);
  if (match === null) return undefined;
  const [, repository = '', area, reference] = match;
  return {
    host: normaliseHost(url.host),
    repository: decodeURIComponent(repository),
    area: area === 'manifests' ? 'manifests' : 'blobs',
    reference: area === 'manifests' && reference ? decodeURIComponent(reference) : undefined,
  };
}

export function isSameRepository(url: RegistryUrl, ref: ImageRef): boolean {
  return url.host === ref.host && url.repository === ref.repository;
}

function normaliseHost(host: string): string {
  const lower = host.toLowerCase();
  return dockerHubHosts.has(lower) ? 'docker.io' : lower;
}
