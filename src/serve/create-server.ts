import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { readRunFileBytes } from '../artifacts/open-run-file.js';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import { listRuns } from '../report/list-runs.js';
import { readPageAssets } from '../report/page-assets.js';
import { renderRunsIndex, RUNS_INDEX_SCRIPT, RUNS_INDEX_SCRIPT_NAME } from '../report/render-runs-index.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { UsageError } from '../shared/errors.js';
import { createLogger, type Logger } from '../shared/logger.js';
import { throwFileAccessError } from '../shared/to-file-access-error.js';
import {
  buildTrends,
  createTrendRunsReader,
  renderTrendsHtml,
  type TrendRunsReader,
} from '../trends/index.js';
import { createRunCache, type RunCache } from './create-run-cache.js';
import { listRunItems } from './list-run-items.js';
import { createFailureLog, toFailureReply, type FailureLog } from './failure-reply.js';
import { acceptsGzip, fileReply, matchesEtag, type Reply } from './conditional-reply.js';
import { isServableStamp, routeRequest, SECURITY_HEADERS, type Route } from './route-request.js';
import { toListenError } from './to-listen-error.js';
import { buildMetricSamples } from './metrics/build-metric-samples.js';
import { createMetricModelMemo, readMetricGroups } from './metrics/read-metric-groups.js';
import { OPEN_METRICS_CONTENT_TYPE, renderOpenMetrics } from './metrics/render-open-metrics.js';

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
  /** Where failures go with their details (paths, parser messages); viewers only get a short reason. */
  logger?: Logger;
}

export interface RunningServer {
  server: Server;
  url: string;
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
  trends: TrendRunsReader;
  failures: FailureLog;
  clock: Clock;
  metricModels: ReturnType<typeof createMetricModelMemo>;
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

async function answer(context: Context, request: IncomingMessage, route: Route): Promise<Reply> {
  switch (route.kind) {
    case 'bad-request':
      return { status: 400, body: `bad request: ${route.reason}\n` };
    case 'not-found':
      return { status: 404, body: 'not found\n' };
    case 'index': {
      const all = await listRunItems(context);
      const inside = await Promise.all(
        all.map(async (r) => (await resolveRunDir(context, r.stamp)) !== undefined),
      );
      const runs = all.filter((_, i) => inside[i]);
      const html = renderRunsIndex({
        title: 'rocm-perf runs',
        runs,
        assetBase: '/assets/',
        trendsHref: '/trends.html',
        note: 'Runs served live by rocm-perf serve.',
      });
      // An ETag of the page itself: a viewer reloading an unchanged list gets a 304.
      return fileReply(request, Buffer.from(html), TYPES['.html']);
    }
    case 'trends':
      return answerTrends(context);
    case 'metrics':
      return answerMetrics(context);
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

/** trends.html over the runs this server serves (inside the root); docs/trends.md. */
async function answerTrends(context: Context): Promise<Reply> {
  const entries = await Promise.all(
    (await listRuns(context.root))
      .filter((r) => isServableStamp(r.stamp))
      .map(async (r) => ({
        stamp: r.stamp,
        dir: await resolveRunDir(context, r.stamp),
      })),
  );
  const { runs, notes, details, folders } = await context.trends.read(
    entries.flatMap((e) => (e.dir ? [{ stamp: e.stamp, dir: e.dir }] : [])),
  );
  for (const detail of details) context.failures.record('trends', detail);
  const runHref = (stamp: string): string => `/runs/${encodeURIComponent(folders.get(stamp) ?? stamp)}/`;
  const body = renderTrendsHtml({ trends: buildTrends({ runs }), indexHref: '/', runHref, notes });
  return { status: 200, type: TYPES['.html'], body, headers: { 'Cache-Control': 'no-cache' } };
}

/** /metrics: the latest completed run per lane, harness and arch in OpenMetrics text (docs/metrics.md). */
async function answerMetrics(context: Context): Promise<Reply> {
  const sources = {
    root: context.root,
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
  const context: Context = {
    root,
    realRoot,
    cache,
    resolved: new Map(),
    trends: createTrendRunsReader(),
    failures: createFailureLog(options.logger ?? createLogger()),
    clock,
    metricModels: createMetricModelMemo(),
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
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.bind.includes(':') ? `[${options.bind}]` : options.bind;
  return {
    server,
    url: `http://${host}:${port}/`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await cache.close();
    },
  };
}
