import { request } from '../../shared/request.js';
import { HttpError } from '../../shared/errors.js';
import type { RegistryCredentials } from './read-docker-auth.js';

// OCI distribution checks: `GET /v2/` and `HEAD /v2/<name>/manifests/<ref>` with the manifest
// Accept list, answering a 401 challenge with Bearer (token endpoint) or Basic auth.

const MANIFEST_ACCEPT = [
  'application/vnd.docker.distribution.manifest.v2+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.oci.image.index.v1+json',
  '*/*',
].join(', ');

interface AuthChallenge {
  scheme: 'bearer' | 'basic';
  params: Record<string, string>;
}

/** Pure: `Bearer realm="…",service="…",scope="…"` → scheme and params. @internal */
export function parseAuthChallenge(header: string | undefined): AuthChallenge | undefined {
  if (!header) return undefined;
  const match = /^\s*(\w+)\s*(.*)$/.exec(header);
  const scheme = match?.[1]?.toLowerCase();
  if (scheme !== 'bearer' && scheme !== 'basic') return undefined;
  const params: Record<string, string> = {};
  for (const part of (match?.[2] ?? '').matchAll(/(\w+)=(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g)) {
    params[(part[1] ?? '').toLowerCase()] = part[2] ?? part[3] ?? '';
  }
  return { scheme, params };
}

export interface RegistryClientOptions {
  /** e.g. http://registry.fleet.lan:5000 */
  baseUrl: string;
  credentials?: RegistryCredentials | undefined;
  timeoutMs?: number;
}

function basicHeader(credentials: RegistryCredentials): string {
  return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
}

async function fetchBearerToken(
  challenge: AuthChallenge,
  scope: string | undefined,
  options: RegistryClientOptions,
): Promise<string> {
  const realm = challenge.params.realm;
  if (!realm) throw new HttpError(options.baseUrl, 401, 'Bearer challenge without a realm');
  const url = new URL(realm);
  if (challenge.params.service) url.searchParams.set('service', challenge.params.service);
  const wanted = scope ?? challenge.params.scope;
  if (wanted) url.searchParams.set('scope', wanted);
  const headers: Record<string, string> = options.credentials
    ? { authorization: basicHeader(options.credentials) }
    : {};
  const response = await request(url, {
    headers,
    headersTimeout: options.timeoutMs ?? 10_000,
    bodyTimeout: options.timeoutMs ?? 10_000,
  });
  const body = (await response.body.json().catch(() => ({}))) as { token?: string; access_token?: string };
  const token = body.token ?? body.access_token;
  if (response.statusCode !== 200 || !token) {
    throw new HttpError(
      url.origin + url.pathname,
      response.statusCode,
      `token endpoint answered ${response.statusCode} without a token`,
      {
        hint: 'check the registry credentials in ~/.docker/config.json (docker login)',
      },
    );
  }
  return token;
}

async function send(url: string, method: 'GET' | 'HEAD', headers: Record<string, string>, timeoutMs: number) {
  const response = await request(url, { method, headers, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  await response.body.dump();
  return response;
}

/** One request with the 401 dance done at most once. Returns the final status. */
export async function fetchRegistryStatus(
  path: string,
  { method, scope, ...options }: RegistryClientOptions & { method: 'GET' | 'HEAD'; scope?: string },
): Promise<number> {
  const url = `${options.baseUrl.replace(/\/+$/, '')}${path}`;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const headers: Record<string, string> = method === 'HEAD' ? { accept: MANIFEST_ACCEPT } : {};
  const first = await send(url, method, headers, timeoutMs);
  if (first.statusCode !== 401) return first.statusCode;
  const wwwAuthenticate = first.headers['www-authenticate'];
  const challenge = parseAuthChallenge(Array.isArray(wwwAuthenticate) ? wwwAuthenticate[0] : wwwAuthenticate);
  if (!challenge) return 401;
  if (challenge.scheme === 'basic') {
    if (!options.credentials) return 401;
    return (
      await send(url, method, { ...headers, authorization: basicHeader(options.credentials) }, timeoutMs)
    ).statusCode;
  }
  const token = await fetchBearerToken(challenge, scope, options);
  return (await send(url, method, { ...headers, authorization: `Bearer ${token}` }, timeoutMs)).statusCode;
}

/** `HEAD /v2/<name>/manifests/<ref>`: true on 200, false on 404, HttpError otherwise. */
export async function fetchManifestExists(
  repository: string,
  reference: string,
  options: RegistryClientOptions,
): Promise<boolean> {
  const path = `/v2/${repository}/manifests/${reference}`;
  const status = await fetchRegistryStatus(path, {
    ...options,
    method: 'HEAD',
    scope: `repository:${repository}:pull`,
  });
  if (status === 200) return true;
  if (status === 404) return false;
  throw new HttpError(`${options.baseUrl}${path}`, status, `HEAD answered ${status}`, {
    hint:
      status === 401 || status === 403
        ? 'log in to the registry (docker login) so ~/.docker/config.json has credentials'
        : undefined,
  });
}
