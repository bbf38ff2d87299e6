import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { readRunFileBytes } from '../shared/open-run-file.js';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import {
  readPageAssets,
  renderRunsIndex,
  RUNS_INDEX_SCRIPT,
  RUNS_INDEX_SCRIPT_NAME,
} from '../report/index.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { UsageError } from '../shared/errors.js';
import { createLogger, type Logger } from '../shared/logger.js';
import { throwFileAccessError } from '../shared/to-file-access-error.js';
import { formatServeUrl } from '../shared/format-serve-url.js';
import { buildTrends, renderTrendsHtml, toTrendRunFromEntry } from '../trends/index.js';
import { createRunCache, type RunCache } from './create-run-cache.js';
import { createRunIndexView, type RunIndexBuild, type RunIndexView } from './create-run-index-view.js';
import {
  filterEntries,
  listFacets,
  PAGE_SIZE,
  parseHistoryQuery,
  renderFilterNav,
  toQueryString,
  toStatus,
  type HistoryQuery,
} from './history-query.js';
import { createFailureLog, toFailureReply, type FailureLog } from './failure-reply.js';
import { acceptsGzip, fileReply, matchesEtag, type Reply } from './conditional-reply.js';
import { routeRequest, SECURITY_HEADERS, type Route } from './route-request.js';
import { toListenError } from './to-listen-error.js';
import { buildMetricSamples } from './metrics/build-metric-samples.js';
import { createMetricModelMemo, readMetricGroups } from './metrics/read-metric-groups.js';
import { OPEN_METRICS_CONTENT_TYPE, renderOpenMetrics } from './metrics/render-open-metrics.js';
import { escapeHtml } from '../shared/escape-html.js';
import {
  describeIndexBuild,
  INDEX_BUILD_RETRY_SECONDS,
  renderIndexBuildingPage,
} from './describe-index-build.js';

// `serve`: read-only HTTP over the runs root. GET and HEAD only; paths are routed before touching the disk. The
// root is resolved once (realpath: an operator may reach it through a link); a run dir must be a directory of the
// root's own (lstat: a link there is not a run), and every file in it is read confined (openRunFile: no link, no
// hard link, no special file), so no byte from outside the root is served (docs/trust.md). Files are served here
// rather than through a static handler such as sirv: docs/report.md says why.

export interface ServeOptions {
  root: string;
  bind: string;
  port: number;
  /** data.json of a polled run is regenerated at most this often (background). */
  refreshMs?: number;
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  clock?: Clock;
  /** The run index's full checks of the run dirs (docs/history.md): every `everyMs`, the first `firstMs` after a start. */
  indexChecks?: { everyMs: number; firstMs: number };
  /** Where failures go with their details (paths, parser messages); viewers only get a short reason. */
  logger?: Logger;
  /** Each step of a load of the run index (serve starts one as it starts listening), and its end. */
  onIndexProgress?: (build: RunIndexBuild) => void;
  /** How long `/`, trends and /metrics wait for a loading index before answering 503 with its progress. */
  indexWaitMs?: number;
}

export interface RunningServer {
  server: Server;
  url: string;
  /** Resolves once the run index is loaded (rejects as the first page would, when it cannot be). */
  indexReady(): Promise<void>;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.svg': 'image/svg+xml',
};

function send(request: IncomingMessage, response: ServerResponse, reply: Reply): void {
  const body =
    reply.body === undefined
      ? Buffer.alloc(0)
      : Buffer.isBuffer(reply.body)
        ? reply.body
        : Buffer.from(reply.body);
  response.writeHead(reply.status, {
    ...SECURITY_HEADERS,
    'Content-Type': reply.type ?? 'text/plain; charset=utf-8',
    'Content-Length': String(body.length),
    ...reply.headers,
  });
  response.end(request.method === 'HEAD' ? undefined : body);
}

interface Context {
  root: string;
  realRoot: string;
  cache: RunCache;
  resolved: Map<string, { dir: string | undefined; atMs: number }>;
  index: RunIndexView;
  /** The last trends page per query, kept while the index's version holds. */
  trendsPages: Map<string, { version: number; body: string }>;
  failures: FailureLog;
  clock: Clock;
  metricModels: ReturnType<typeof createMetricModelMemo>;
  indexWaitMs: number;
}

/**
 * Resolves a stamp (one path segment: routeRequest) to its run dir, a directory of the real root's own, never a
 * link; remembered for a second to keep polls syscall-free.
 */
async function resolveRunDir(context: Context, stamp: string): Promise<string | undefined> {
  const cached = context.resolved.get(stamp);
  if (cached && Date.now() - cached.atMs < 1000) return cached.dir;
  const dir = path.join(context.realRoot, stamp);
  const ok = (await lstat(dir).catch(() => undefined))?.isDirectory() === true;
  if (context.resolved.size > 10_000) context.resolved.clear();
  context.resolved.set(stamp, { dir: ok ? dir : undefined, atMs: Date.now() });
  return ok ? dir : undefined;
}

/** How long a history request waits for the run index before it is told how far the index's load has got. */
const INDEX_WAIT_MS = 1000;

type IndexNow = Awaited<ReturnType<RunIndexView['current']>>;

/**
 * The run index when it is ready (within `indexWaitMs`); else, while it loads (a first start reads every run), a 503
 * saying how far it has got: a page that reloads itself for `/` and trends, a line for /metrics.
 */
async function awaitIndex(
  context: Context,
  as: 'page' | 'text',
): Promise<{ index: IndexNow } | { reply: Reply }> {
  const ready = context.index.current();
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), context.indexWaitMs);
  });
  try {
    const index = await Promise.race([ready, waited]);
    if (index) return { index };
  } finally {
    clearTimeout(timer);
  }
  const build = context.index.building();
  // Not loading, only slow (a check under load): the request waits for it, as it always did.
  if (!build) return { index: await ready };
  const now = Date.now();
  const headers = { 'Retry-After': String(INDEX_BUILD_RETRY_SECONDS), 'Cache-Control': 'no-store' };
  return {
    reply:
      as === 'page'
        ? { status: 503, type: TYPES['.html'], body: renderIndexBuildingPage(build, now), headers }
        : { status: 503, body: `rocm-perf serve is ${describeIndexBuild(build, now)}\n`, headers },
  };
}

/** `/`, trends and /metrics: answered from the run index as it stands when the request came (one check of it). */
async function answerHistory(
  context: Context,
  request: IncomingMessage,
  kind: 'index' | 'trends' | 'metrics',
): Promise<Reply> {
  if (kind === 'metrics') {
    const awaited = await awaitIndex(context, 'text');
    return 'reply' in awaited ? awaited.reply : answerMetrics(context, awaited.index);
  }
  const parsed = parseHistoryQuery(request.url ?? '/');
  if ('error' in parsed) return { status: 400, body: `bad request: ${parsed.error}\n` };
  const awaited = await awaitIndex(context, 'page');
  if ('reply' in awaited) return awaited.reply;
  const { index } = awaited;
  if (kind === 'trends') return answerTrends(context, parsed.query, index);
  // An ETag of the page itself: a viewer reloading an unchanged list gets a 304.
  return fileReply(request, Buffer.from(renderIndexPage(parsed.query, index)), TYPES['.html']);
}

async function answer(context: Context, request: IncomingMessage, route: Route): Promise<Reply> {
  switch (route.kind) {
    case 'bad-request':
      return { status: 400, body: `bad request: ${route.reason}\n` };
    case 'not-found':
      return { status: 404, body: 'not found\n' };
    case 'index':
    case 'trends':
    case 'metrics':
      return answerHistory(context, request, route.kind);
    case 'asset': {
      if (route.name === RUNS_INDEX_SCRIPT_NAME)
        return {
          status: 200,
          type: TYPES['.js'],
          body: RUNS_INDEX_SCRIPT,
          headers: { 'Cache-Control': 'no-cache' },
        };
      const assets = await readPageAssets();
      return fileReply(request, assets[route.name as keyof typeof assets], TYPES['.js'], { compress: true });
    }
    case 'run-redirect':
      return { status: 301, headers: { Location: `/runs/${encodeURIComponent(route.stamp)}/` } };
    default:
      return answerRun(context, request, route);
  }
}

const runHrefOf = (folder: string): string => `/runs/${encodeURIComponent(folder)}/`;

/** `/`: one page of the runs passing the filters, newest first, from the run index (docs/history.md). */
function renderIndexPage(query: HistoryQuery, { runs: all }: IndexNow): string {
  const runs = filterEntries(all, query);
  const pages = Math.max(1, Math.ceil(runs.length / PAGE_SIZE));
  const page = Math.min(query.page ?? 1, pages);
  const shown = runs.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const link = (to: number, label: string) =>
    `<a href="${escapeHtml(`/${toQueryString(query, { page: to === 1 ? undefined : String(to) })}`)}">${label}</a>`;
  const pageLinks = [
    page > 1 ? link(1, '« newest') : '',
    page > 1 ? link(page - 1, '‹ newer') : '',
    `page ${page} of ${pages}`,
    page < pages ? link(page + 1, 'older ›') : '',
    page < pages ? link(pages, 'oldest »') : '',
  ].filter(Boolean);
  return renderRunsIndex({
    title: 'rocm-perf runs',
    runs: shown.map((e) => ({
      stamp: e.folder,
      href: runHrefOf(e.folder),
      harness: e.harness,
      lane: e.lane,
      status: e.damaged === null ? toStatus(e) : `broken: ${e.damaged}`,
      namespace: e.namespace,
    })),
    assetBase: '/assets/',
    trendsHref: `/trends.html${toQueryString(query, { page: undefined })}`,
    note: 'Runs served live by rocm-perf serve.',
    nav: {
      filters: renderFilterNav('/', query, listFacets(all)),
      count: `${runs.length === all.length ? `${all.length} run${all.length === 1 ? '' : 's'}` : `${runs.length} of ${all.length} runs pass the filters`}; ${shown.length ? `${(page - 1) * PAGE_SIZE + 1}–${(page - 1) * PAGE_SIZE + shown.length} shown` : 'none shown'}`,
      pages: `<p class="pages">${pageLinks.join(' · ')}</p>`,
    },
  });
}

/** trends.html over the runs passing the filters, from the run index; per-target series on demand (targets=1). */
function answerTrends(context: Context, query: HistoryQuery, { runs: all, version }: IndexNow): Reply {
  const key = toQueryString(query, { page: undefined });
  const kept = context.trendsPages.get(key);
  const reply = (body: string): Reply => ({
    status: 200,
    type: TYPES['.html'],
    body,
    headers: { 'Cache-Control': 'no-cache' },
  });
  if (kept?.version === version) return reply(kept.body);
  const picked = filterEntries(all, query);
  const notes = picked.flatMap((e) => (e.damaged === null ? [] : [`${e.folder} left out: ${e.damaged}`]));
  const readable = picked.filter((e) => e.damaged === null);
  const folders = new Map(readable.map((e) => [e.stamp, e.folder]));
  const runHref = (stamp: string): string => runHrefOf(folders.get(stamp) ?? stamp);
  const body = renderTrendsHtml({
    trends: buildTrends({ runs: readable.map(toTrendRunFromEntry) }),
    indexHref: `/${toQueryString(query, { page: undefined, targets: undefined })}`,
    runHref,
    notes,
    filters: renderFilterNav('/trends.html', query, listFacets(all)),
    targetsHref:
      query.targets === '1'
        ? undefined
        : `/trends.html${toQueryString(query, { page: undefined, targets: '1' })}`,
  });
  if (context.trendsPages.size > 200) context.trendsPages.clear();
  context.trendsPages.set(key, { version, body });
  return reply(body);
}

/** /metrics: the latest completed run per lane, harness and arch in OpenMetrics text (docs/metrics.md). */
async function answerMetrics(context: Context, index: IndexNow): Promise<Reply> {
  const sources = {
    listRuns: () => Promise.resolve(index.runs),
    cache: context.cache,
    failures: context.failures,
    resolveRunDir: (stamp: string) => resolveRunDir(context, stamp),
  };
  const { groups, unreadableRuns } = await readMetricGroups(sources, context.metricModels);
  const samples = buildMetricSamples({ groups, nowMs: context.clock.nowMs(), unreadableRuns });
  return {
    status: 200,
    type: OPEN_METRICS_CONTENT_TYPE,
    body: renderOpenMetrics(samples),
    headers: { 'Cache-Control': 'no-cache' },
  };
}

async function answerRun(
  context: Context,
  request: IncomingMessage,
  route: Extract<Route, { stamp: string }>,
): Promise<Reply> {
  const dir = await resolveRunDir(context, route.stamp);
  if (!dir) return { status: 404, body: 'no such run\n' };
  if (route.kind === 'run-file') {
    const file = path.join(dir, route.file);
    return fileReply(request, await readRunFileBytes(file), TYPES[path.extname(route.file)]);
  }
  const snapshot = await context.cache.get(dir);
  if (route.kind === 'run-page')
    return {
      status: 200,
      type: TYPES['.html'],
      body: snapshot.html,
      headers: { 'Cache-Control': 'no-cache' },
    };
  const headers = {
    ETag: snapshot.etag,
    'Cache-Control': 'no-cache',
    Vary: 'Accept-Encoding',
    ...(snapshot.error
      ? { 'X-Rocm-Perf-Refresh-Error': snapshot.error.reason.slice(0, 200).replace(/[^\x20-\x7e]/g, '?') }
      : {}),
  };
  if (matchesEtag(request.headers['if-none-match'], snapshot.etag)) return { status: 304, headers };
  if (acceptsGzip(request)) {
    return {
      status: 200,
      type: TYPES['.json'],
      body: snapshot.bodyGzip,
      headers: { ...headers, 'Content-Encoding': 'gzip' },
    };
  }
  return { status: 200, type: TYPES['.json'], body: snapshot.body, headers };
}

async function handle(context: Context, request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    send(request, response, {
      status: 405,
      body: 'read-only: GET and HEAD only\n',
      headers: { Allow: 'GET, HEAD' },
    });
    return;
  }
  try {
    send(request, response, await answer(context, request, routeRequest(request.url ?? '/')));
  } catch (error) {
    send(request, response, toFailureReply(context.failures, request, error));
  }
}

/** The root must be a directory serve can list, or every page would fail later, for every viewer. */
async function checkRoot(given: string, realRoot: string): Promise<void> {
  if (!(await stat(realRoot)).isDirectory())
    throw new UsageError(`--root ${given}: a file, not a directory of runs`, {
      hint: 'pass the runs root (--root or PERF_ROOT), e.g. --root /var/tmp/rocm-perf',
    });
  await readdir(realRoot).catch(
    throwFileAccessError({ path: given, flag: '--root', doing: 'list its runs' }),
  );
}

function listHostAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => entry.address));
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const root = path.resolve(options.root);
  const realRoot = await realpath(root).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT' && error.code !== 'ENOTDIR') throw error;
    throw new UsageError(`--root ${options.root}: no such directory`, {
      hint: 'pass the runs root (--root or PERF_ROOT), or run `rocm-perf warm` or `cold` first to create it',
    });
  });
  await checkRoot(options.root, realRoot);
  const clock = options.clock ?? systemClock;
  const cache = createRunCache({ refreshMs: options.refreshMs ?? 3000, clock });
  // Without a logger (a test, an embedder): warnings and errors on stderr, as `--log-level`'s default.
  const failures = createFailureLog(options.logger ?? createLogger({ level: 'warn' }));
  const context: Context = {
    root,
    realRoot,
    cache,
    resolved: new Map(),
    index: createRunIndexView({
      realRoot,
      failures,
      fullCheckMs: options.indexChecks?.everyMs,
      firstFullCheckMs: options.indexChecks?.firstMs,
      onProgress: options.onIndexProgress,
    }),
    trendsPages: new Map(),
    failures,
    clock,
    metricModels: createMetricModelMemo(),
    indexWaitMs: options.indexWaitMs ?? INDEX_WAIT_MS,
  };
  const server = createServer(
    {
      headersTimeout: options.headersTimeoutMs ?? 10_000,
      requestTimeout: options.requestTimeoutMs ?? 30_000,
      connectionsCheckingInterval: 500,
    },
    (request, response) => {
      void handle(context, request, response);
    },
  );
  server.keepAliveTimeout = 5000;
  server.maxHeadersCount = 100;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.bind, () => resolve());
  }).catch(async (error: unknown) => {
    await cache.close();
    throw toListenError(error, {
      bind: options.bind,
      port: options.port,
      hostAddresses: listHostAddresses(),
    });
  });
  // The index loads from now on, not at the first viewer's request: over a long history without an index file
  // (a first start) that is minutes of reading, and viewers meanwhile are told how far it has got (awaitIndex).
  context.index.start();
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    server,
    url: formatServeUrl(options.bind, port),
    indexReady: async () => {
      await context.index.current();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await cache.close();
    },
  };
}
