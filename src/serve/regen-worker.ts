import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { buildReportModel, renderHtml, serialiseModel } from '../report/index.js';
import { renderChartSvg } from '../report/render-chart-svg.js';
import { toViewerReason } from '../shared/to-viewer-reason.js';
import { createInFlightRunReader, type InFlightRunReader } from './create-in-flight-run-reader.js';
import type { RegenReply, RegenRequest } from './regen-protocol.js';
import { errorMessage } from '../shared/error-message.js';

// Runs in a child process (forked by create-run-cache.ts): reads run dirs incrementally and builds data.json and
// the page, so the server's event loop never waits on a parse or a model build. One reader (cursors) per run dir.

const readers = new Map<string, InFlightRunReader>();

async function regenerate(request: RegenRequest): Promise<RegenReply> {
  const reader = readers.get(request.dir) ?? createInFlightRunReader(request.dir);
  readers.set(request.dir, reader);
  const { inputs, changed } = await reader.read();
  if (!changed && request.haveSnapshot) return { id: request.id, kind: 'unchanged' };
  const model = buildReportModel({ ...inputs, generatedAtMs: Date.now() });
  const body = Buffer.from(serialiseModel(model));
  const inFlight = model.run.status === 'running';
  return {
    id: request.id,
    kind: 'built',
    body,
    bodyGzip: gzipSync(body, { level: 6 }),
    // Weak: the same tag stands for the identity and the gzip encoding of one data.json.
    etag: `W/"${createHash('sha1').update(body).digest('base64url')}"`,
    // A finished run's page carries its chart's SVG as its first paint (rendered once: a finished run does not
    // change). A live run's is rebuilt every refresh, so its page waits for ECharts instead of costing an SVG each time.
    html: Buffer.from(
      renderHtml({
        model,
        assetBase: '/assets/',
        indexHref: '/',
        ...(inFlight ? {} : { chartSvg: renderChartSvg(model) }),
      }),
    ),
    inFlight,
  };
}

/**
 * A full collection after each rebuilt model: every rebuild allocates a model, its JSON, gzip and page (several
 * MB each) that are garbage a moment later, and V8 otherwise grows its heap to put off collecting them (the soak
 * saw this process at 290–360 MiB over a live set of tens of MiB). Costs tens of ms per rebuild, off the server's
 * event loop.
 */
const collect = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

process.on('message', (request: RegenRequest) => {
  regenerate(request)
    .then((reply) => {
      process.send?.(reply);
      if (reply.kind === 'built') setImmediate(collect);
    })
    .catch((error: unknown) =>
      process.send?.({
        id: request.id,
        kind: 'error',
        reason: toViewerReason(error),
        message: errorMessage(error),
      } satisfies RegenReply),
    );
});
process.on('disconnect', () => process.exit(0));
