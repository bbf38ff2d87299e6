import type { Dispatcher } from 'undici';
import { request } from '../../shared/request.js';
import { HttpError } from '../../shared/errors.js';

// One GET of a node_exporter /metrics page with undici. node_exporter serves the classic text format to a
// plain GET (no OpenMetrics negotiation), uncompressed when no Accept-Encoding is sent.

interface FetchMetricsOptions {
  signal: AbortSignal;
  dispatcher?: Dispatcher | undefined;
}

export type FetchMetrics = (url: string, options: FetchMetricsOptions) => Promise<string>;

export const fetchMetricsText: FetchMetrics = async (url, { signal, dispatcher }) => {
  const response = await request(url, {
    method: 'GET',
    signal,
    ...(dispatcher === undefined ? {} : { dispatcher }),
    headers: { accept: 'text/plain;version=0.0.4' },
  });
  if (response.statusCode !== 200) {
    await response.body.dump({ limit: 64 * 1024, signal });
    throw new HttpError(
      url,
      response.statusCode,
      `answered HTTP ${response.statusCode}; expected 200 with the metrics text`,
    );
  }
  return response.body.text();
};
