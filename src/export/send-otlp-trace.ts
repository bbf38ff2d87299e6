import { HttpError } from '../shared/errors.js';
import { errorMessage } from '../shared/error-message.js';
import { request } from '../shared/request.js';
import { OtlpTraceResponseSchema, type OtlpTraceRequest } from './otlp-trace-schema.js';

// The impure half of `export --otlp`: one POST of the trace to an OTLP/HTTP collector, JSON-encoded, and the
// collector's answer held to the OTLP/HTTP spec (2xx with an ExportTraceServiceResponse; a partial success names the
// spans it dropped). Every failure is an HttpError naming the URL, with a hint.

const OTLP_TRACES_PATH = '/v1/traces';
const TIMEOUT_MS = 30_000;
const BODY_SHOWN = 500;

/** A base URL (`http://host:4318`, no path) gets the collector's standard `/v1/traces`; a path is used as given. */
export function toOtlpTracesUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.pathname === '/' || parsed.pathname === '') parsed.pathname = OTLP_TRACES_PATH;
  return parsed.toString();
}

const NOT_OK_HINTS: Record<number, string> = {
  400: 'the collector could not read the trace; its log names the field (please report it with --debug output)',
  404: `nothing serves traces at this path: pass the collector's base URL (http://HOST:4318) so ${OTLP_TRACES_PATH} is appended, or the full path its OTLP/HTTP receiver serves`,
  413: "the trace is larger than the collector's request limit (an otlp receiver's max_request_body_size); raise it",
  415: 'this endpoint does not take OTLP/JSON (Content-Type: application/json); point --otlp at an OTLP/HTTP receiver',
};

function toShownBody(body: string): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  if (flat === '') return 'an empty body';
  return flat.length > BODY_SHOWN ? `${flat.slice(0, BODY_SHOWN)}…` : flat;
}

async function postTrace(url: string, body: string): Promise<{ status: number; text: string }> {
  try {
    const response = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    return { status: response.statusCode, text: await response.body.text() };
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new HttpError(
      url,
      undefined,
      `could not send the trace: ${code ? `${code}, ` : ''}${errorMessage(error)}`,
      {
        hint: 'start the collector, or check the host and port in --otlp (an OpenTelemetry Collector or Jaeger takes OTLP/HTTP on port 4318)',
        cause: error,
      },
    );
  }
}

/** The spans a 2xx answer says were dropped (0: all accepted), or an error when the answer is not OTLP's. */
function readRejectedSpans(url: string, status: number, text: string): { rejected: number; message: string } {
  if (text.trim() === '') return { rejected: 0, message: '' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new HttpError(
      url,
      status,
      `answered HTTP ${status} with ${toShownBody(text)}, not an OTLP response`,
      {
        hint: 'point --otlp at an OTLP/HTTP receiver (a collector answers an export with a JSON ExportTraceServiceResponse)',
      },
    );
  }
  const parsed = OtlpTraceResponseSchema.safeParse(json);
  if (!parsed.success)
    throw new HttpError(
      url,
      status,
      `answered HTTP ${status} with ${toShownBody(text)}, not an OTLP response`,
      {
        hint: 'point --otlp at an OTLP/HTTP receiver',
      },
    );
  const partial = parsed.data.partialSuccess;
  return { rejected: Number(partial?.rejectedSpans ?? 0), message: partial?.errorMessage ?? '' };
}

export interface SendOtlpTraceOptions {
  /** The endpoint, `/v1/traces` already resolved (toOtlpTracesUrl). */
  url: string;
  trace: OtlpTraceRequest;
  spanCount: number;
}

export async function sendOtlpTrace({ url, trace, spanCount }: SendOtlpTraceOptions): Promise<void> {
  const { status, text } = await postTrace(url, JSON.stringify(trace));
  if (status < 200 || status >= 300)
    throw new HttpError(url, status, `answered HTTP ${status}: ${toShownBody(text)}`, {
      hint:
        NOT_OK_HINTS[status] ??
        (status >= 500 || status === 429
          ? 'the collector is unavailable or overloaded; try again once it is up (its log says why)'
          : 'the collector refused the trace; its answer above and its log say why'),
    });
  const { rejected, message } = readRejectedSpans(url, status, text);
  if (rejected > 0)
    throw new HttpError(
      url,
      status,
      `accepted the trace but rejected ${rejected} of its ${spanCount} spans${message ? `: ${message}` : ''}`,
      { hint: "the collector's log says why it dropped them; a re-export sends the same span ids" },
    );
}
