// The CNCF Distribution registry's JSON log (Debian's docker-registry 2.8, `log.formatter: json`): one
// `"msg":"response completed"` (or `… with error`) line per request. Its lines carry no request size, only
// `http.response.written`, so written sizes stay null here (see fetchBlobSizes). The access-log lines it writes
// beside them (Apache combined format) are not JSON and are skipped.
import type { ByteLine } from './byte-line.js';
import { parseJsonLine } from './json-fields.js';
import type { LineOutcome } from './line-outcome.js';
import { toRecord, toReject, toSkip } from './line-outcome.js';
import { parseGoDuration } from './parse-go-duration.js';
import { parseRfc3339Ms } from './parse-timestamp.js';
import type { RegistryEntry } from './registry-entry.js';
import { toClientIp } from './registry-entry.js';

function toDistributionEntry(fields: Record<string, unknown>): LineOutcome<RegistryEntry> {
  if (typeof fields.msg !== 'string' || !fields.msg.startsWith('response completed'))
    return toSkip('not an HTTP response line');
  const tsMs = typeof fields.time === 'string' ? parseRfc3339Ms(fields.time) : undefined;
  if (tsMs === undefined)
    return toReject(`time: expected an RFC 3339 timestamp, got ${JSON.stringify(fields.time)}`);
  const method = fields['http.request.method'];
  const uri = fields['http.request.uri'];
  const address = fields['http.request.remoteaddr'];
  const status = fields['http.response.status'];
  const duration = fields['http.response.duration'];
  const written = fields['http.response.written'];
  if (typeof method !== 'string' || typeof uri !== 'string' || typeof address !== 'string')
    return toReject('http.request.method, http.request.uri and http.request.remoteaddr must be strings');
  if (typeof status !== 'number' || !Number.isInteger(status))
    return toReject(`http.response.status: expected an integer, got ${JSON.stringify(status)}`);
  return toRecord({
    tsMs,
    clientAddress: toClientIp(address),
    method,
    path: uri,
    status,
    durationMs: typeof duration === 'string' ? (parseGoDuration(duration) ?? null) : null,
    requestBytes: null,
    responseBytes: typeof written === 'number' && written >= 0 ? written : null,
  });
}

/** One docker-registry log line → an entry, or a skip (not JSON, not a completed request) or a rejection. */
export function parseDistributionLine(line: ByteLine): LineOutcome<RegistryEntry> {
  const outcome = parseJsonLine(line);
  return outcome.ok ? toDistributionEntry(outcome.record) : outcome;
}
