import type { Dispatcher } from 'undici';
import { request } from '../../shared/request.js';
import { HttpError } from '../../shared/errors.js';
import { buildSamplesQuery } from './build-samples-query.js';
import { parsePrometheusResponse, type FigurePoints } from './parse-prometheus-response.js';
import { parseScrapeIntervals } from './parse-scrape-intervals.js';

// The Prometheus HTTP API with undici: instant and range queries of the samples query, answers checked by zod.

interface FetchSamplesPointsOptions {
  /** Base URL of the Prometheus server, e.g. http://prom:9090. */
  prometheusUrl: string;
  instances: readonly string[];
  stepMs: number;
  /** One instant (`/api/v1/query`), or a range (`/api/v1/query_range` at `stepMs`). */
  at: { timeMs: number } | { startMs: number; endMs: number };
  signal?: AbortSignal;
  dispatcher?: Dispatcher;
}

export type FetchSamplesPoints = (options: FetchSamplesPointsOptions) => Promise<FigurePoints>;

/** Joins the API path onto the base URL, keeping a path prefix (Prometheus behind `--web.route-prefix`). */
function toApiUrl(prometheusUrl: string, apiPath: string): string {
  return `${prometheusUrl.replace(/\/+$/, '')}${apiPath}`;
}

export const fetchSamplesPoints: FetchSamplesPoints = async (options) => {
  const query = buildSamplesQuery({ instances: options.instances, stepMs: options.stepMs });
  const params = new URLSearchParams({ query });
  const { at } = options;
  if ('timeMs' in at) params.set('time', String(at.timeMs / 1000));
  else {
    params.set('start', String(at.startMs / 1000));
    params.set('end', String(at.endMs / 1000));
    params.set('step', String(options.stepMs / 1000));
  }
  const url = toApiUrl(options.prometheusUrl, 'timeMs' in at ? '/api/v1/query' : '/api/v1/query_range');
  // POST keeps a long query (many instances) out of the URL's length limit.
  return requestPrometheusJson(url, { method: 'POST', params }, options, (json) => {
    const parsed = parsePrometheusResponse(json);
    return parsed.ok ? { ok: true, value: parsed.points } : parsed;
  });
};

type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** One call of the HTTP API: the answer's JSON checked by `parse`; HttpError when it is not JSON or not usable. */
async function requestPrometheusJson<T>(
  url: string,
  init: { method: 'GET' } | { method: 'POST'; params: URLSearchParams },
  { signal, dispatcher }: Pick<FetchSamplesPointsOptions, 'signal' | 'dispatcher'>,
  parse: (json: unknown) => Parsed<T>,
): Promise<T> {
  const response = await request(url, {
    method: init.method,
    headers: {
      accept: 'application/json',
      ...(init.method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(init.method === 'POST' ? { body: init.params.toString() } : {}),
    ...(signal === undefined ? {} : { signal }),
    ...(dispatcher === undefined ? {} : { dispatcher }),
  });
  const text = await response.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new HttpError(url, response.statusCode, `answered HTTP ${response.statusCode} with no JSON`);
  }
  const parsed = parse(json);
  if (!parsed.ok) throw new HttpError(url, response.statusCode, parsed.error);
  return parsed.value;
}

/** Which of `instances` have any `up` series at all; throws (HttpError, or undici's) when Prometheus does not answer. */
export async function fetchKnownInstances(options: {
  prometheusUrl: string;
  instances: readonly string[];
  signal?: AbortSignal;
  dispatcher?: Dispatcher;
}): Promise<Set<string>> {
  const points = await fetchSamplesPoints({
    ...options,
    stepMs: 5 * 60_000,
    at: { timeMs: Date.now() },
  });
  return new Set([...points].filter(([, figures]) => figures.has('up')).map(([instance]) => instance));
}

/** instance → scrape interval in ms of Prometheus' active targets (`/api/v1/targets`). */
export async function fetchScrapeIntervals(options: {
  prometheusUrl: string;
  signal?: AbortSignal;
  dispatcher?: Dispatcher;
}): Promise<Map<string, number>> {
  const url = toApiUrl(options.prometheusUrl, '/api/v1/targets?state=active');
  return requestPrometheusJson(url, { method: 'GET' }, options, (json) => {
    const parsed = parseScrapeIntervals(json);
    return parsed.ok ? { ok: true, value: parsed.intervals } : parsed;
  });
}
