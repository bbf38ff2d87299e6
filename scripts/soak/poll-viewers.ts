import { Client } from 'undici';

// Viewers of a live run, as the run page behaves (src/report/page/report-page.ts): load the page once, then poll
// data.json every pollMs with If-None-Match, each over its own connection like separate browsers.

interface ViewerStats {
  pages: number;
  polls: number;
  ok: number;
  notModified: number;
  errors: number;
  lastError: string | undefined;
  bodyBytes: number;
  maxBodyBytes: number;
  /** The largest data.json body seen, kept so the soak can say what it was made of. */
  largestBody: Buffer | undefined;
  maxLatencyMs: number;
  /** data.json's run.status as the last full answer said. */
  lastStatus: string | undefined;
}

export interface Viewers {
  stats: ViewerStats;
  stop: () => Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function fetchText(client: Client, path: string, headers: Record<string, string>) {
  const response = await client.request({ path, method: 'GET', headers });
  const body = Buffer.from(await response.body.arrayBuffer());
  return { status: response.statusCode, etag: response.headers.etag, body };
}

interface ViewerContext {
  origin: string;
  stamp: string;
  pollMs: number;
  stats: ViewerStats;
  isStopped: () => boolean;
  /** Only one viewer parses what it gets (to read the status): parsing 20 copies would load this process. */
  parses: boolean;
}

function record(stats: ViewerStats, error: unknown): void {
  stats.errors += 1;
  stats.lastError = error instanceof Error ? error.message : String(error);
}

async function runViewer(context: ViewerContext, startDelayMs: number): Promise<void> {
  const { stats } = context;
  const client = new Client(context.origin);
  const base = `/runs/${encodeURIComponent(context.stamp)}/`;
  let etag: string | undefined;
  await sleep(startDelayMs);
  try {
    await fetchText(client, base, {}).then(
      (page) => {
        stats.pages += 1;
        if (page.status !== 200) record(stats, new Error(`GET ${base}: HTTP ${page.status}`));
      },
      (error: unknown) => record(stats, error),
    );
    while (!context.isStopped()) {
      await sleep(context.pollMs);
      const startedMs = Date.now();
      try {
        const reply = await fetchText(client, `${base}data.json`, etag ? { 'if-none-match': etag } : {});
        stats.polls += 1;
        stats.maxLatencyMs = Math.max(stats.maxLatencyMs, Date.now() - startedMs);
        if (reply.status === 304) stats.notModified += 1;
        else if (reply.status === 200) {
          stats.ok += 1;
          stats.bodyBytes += reply.body.length;
          if (reply.body.length > stats.maxBodyBytes) stats.largestBody = reply.body;
          stats.maxBodyBytes = Math.max(stats.maxBodyBytes, reply.body.length);
          etag = typeof reply.etag === 'string' ? reply.etag : undefined;
          if (context.parses)
            stats.lastStatus = (JSON.parse(reply.body.toString('utf8')) as { run?: { status?: string } }).run
              ?.status;
        } else record(stats, new Error(`GET data.json: HTTP ${reply.status}`));
      } catch (error) {
        record(stats, error);
      }
    }
  } finally {
    await client.close().catch(() => undefined);
  }
}

export function pollViewers(options: {
  origin: string;
  stamp: string;
  count: number;
  pollMs: number;
}): Viewers {
  const stats: ViewerStats = {
    pages: 0,
    polls: 0,
    ok: 0,
    notModified: 0,
    errors: 0,
    lastError: undefined,
    bodyBytes: 0,
    maxBodyBytes: 0,
    largestBody: undefined,
    maxLatencyMs: 0,
    lastStatus: undefined,
  };
  let stopped = false;
  const context = { ...options, stats, isStopped: () => stopped };
  const running = Array.from({ length: options.count }, (_, index) =>
    runViewer({ ...context, parses: index === 0 }, (index * options.pollMs) / options.count),
  );
  return {
    stats,
    stop: async () => {
      stopped = true;
      await Promise.all(running);
    },
  };
}
