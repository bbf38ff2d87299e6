// Sizes the registry log does not carry (docker-registry logs no request size): a HEAD of the blob (or manifest)
// returns its Content-Length. A size that cannot be fetched stays null, never 0.
import { request } from '../shared/request.js';
import type { RegistryRecord } from './types.js';
import { errorMessage } from '../shared/error-message.js';

export interface FetchBlobSizesOptions {
  /** Registry base URL, e.g. http://registry.fleet.lan:5000 */
  registryUrl: string;
  records: readonly RegistryRecord[];
  concurrency?: number;
  timeoutMs?: number;
  headers?: Record<string, string>;
}

export interface FetchBlobSizesResult {
  /** The records, with `bytes` filled in where the registry answered. */
  records: RegistryRecord[];
  fetched: number;
  failures: { url: string; error: string }[];
}

const manifestAccept = [
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.docker.distribution.manifest.v2+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
].join(', ');

function toSizeUrl(registryUrl: string, record: RegistryRecord): string | undefined {
  if (record.bytes !== null || record.repository === undefined || record.reference === undefined)
    return undefined;
  const base = registryUrl.replace(/\/+$/, '');
  if (record.kind === 'blob-write') return `${base}/v2/${record.repository}/blobs/${record.reference}`;
  if (record.kind === 'manifest-write')
    return `${base}/v2/${record.repository}/manifests/${record.reference}`;
  return undefined;
}

async function headSize(url: string, options: FetchBlobSizesOptions): Promise<number> {
  const response = await request(url, {
    method: 'HEAD',
    headers: { accept: manifestAccept, ...options.headers },
    headersTimeout: options.timeoutMs ?? 10_000,
    bodyTimeout: options.timeoutMs ?? 10_000,
  });
  await response.body.dump();
  const length = Number(response.headers['content-length']);
  if (response.statusCode !== 200) throw new Error(`HEAD answered ${response.statusCode}`);
  if (!Number.isSafeInteger(length) || length < 0) throw new Error('no Content-Length in the answer');
  return length;
}

export async function fetchBlobSizes(options: FetchBlobSizesOptions): Promise<FetchBlobSizesResult> {
  const urls = [
    ...new Set(
      options.records
        .map((record) => toSizeUrl(options.registryUrl, record))
        .filter((url) => url !== undefined),
    ),
  ];
  const sizes = new Map<string, number>();
  const failures: { url: string; error: string }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++] ?? '';
      try {
        sizes.set(url, await headSize(url, options));
      } catch (error) {
        failures.push({ url, error: errorMessage(error) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 8, urls.length) }, worker));
  const records = options.records.map((record) => {
    const url = toSizeUrl(options.registryUrl, record);
    const size = url === undefined ? undefined : sizes.get(url);
    return size === undefined ? record : { ...record, bytes: size };
  });
  return { records, fetched: sizes.size, failures };
}
