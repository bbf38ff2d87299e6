// The oracles the log parsers are held to: JSON.parse of the whole line (UTF-8, leniently decoded), fields taken by
// name. Written apart from the product's parsers on purpose; only the timestamp and duration grammars are shared
// (they have tests of their own).
import type { LineOutcome } from '../../../../src/collect/logs/line-outcome.js';
import type { LogFormatSpec } from '../../../../src/collect/logs/parse-log-format.js';
import { parseGoDuration } from '../../../../src/collect/logs/parse-go-duration.js';
import { parseRfc3339Ms } from '../../../../src/collect/logs/parse-timestamp.js';
import type { RegistryEntry } from '../../../../src/collect/logs/registry-entry.js';

const skip = (reason: string): LineOutcome<never> => ({ ok: false, rejected: false, reason });
const reject = (reason: string): LineOutcome<never> => ({ ok: false, rejected: true, reason });

/** A line → its JSON object, or the skip/rejection every JSON log parser gives. */
function parseObject(line: string): LineOutcome<Record<string, unknown>> {
  if (!line.startsWith('{')) return line.trim() === '' ? skip('blank line') : skip('not JSON');
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    value = undefined;
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value))
    return { ok: true, record: value as Record<string, unknown> };
  return line.trimEnd().endsWith('}') ? reject('invalid JSON') : reject('truncated JSON line');
}

function toIp(address: string): string {
  if (address.startsWith('['))
    return address.includes(']') ? address.slice(1, address.indexOf(']')) : address;
  const parts = address.split(':');
  return parts.length === 2 ? (parts[0] ?? '') : address;
}

function toLength(value: unknown): number | null {
  return typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : null;
}

/** A Zot session line the slow, obvious way. */
export function parseZotLineReference(line: string): LineOutcome<RegistryEntry> {
  const parsed = parseObject(line);
  if (!parsed.ok) return parsed;
  const fields = parsed.record;
  if (fields.message === 'HTTP API Audit') return skip('audit line');
  if (fields.message !== 'HTTP API') return skip('not an HTTP line');
  const tsMs = typeof fields.time === 'string' ? parseRfc3339Ms(fields.time) : undefined;
  if (tsMs === undefined)
    return reject(`time: expected an RFC 3339 timestamp, got ${JSON.stringify(fields.time)}`);
  const { clientIP, method, path, statusCode, latency, bodySize, headers } = fields;
  if (typeof clientIP !== 'string' || typeof method !== 'string' || typeof path !== 'string')
    return reject('clientIP, method and path must be strings');
  if (typeof statusCode !== 'number' || !Number.isInteger(statusCode))
    return reject(`statusCode: expected an integer, got ${JSON.stringify(statusCode)}`);
  const isObject = typeof headers === 'object' && headers !== null && !Array.isArray(headers);
  const lengths = isObject ? (headers as Record<string, unknown>)['Content-Length'] : undefined;
  return {
    ok: true,
    record: {
      tsMs,
      clientAddress: toIp(clientIP),
      method,
      path,
      status: statusCode,
      durationMs: typeof latency === 'string' ? (parseGoDuration(latency) ?? null) : null,
      requestBytes: Array.isArray(lengths) ? toLength(lengths[0]) : null,
      responseBytes: typeof bodySize === 'number' && bodySize >= 0 ? bodySize : null,
    },
  };
}

/** An nginx JSON line's values of `variables` (undefined where the log_format lacks one), read by key. */
export function parseNginxValuesReference(
  spec: LogFormatSpec,
  variables: readonly string[],
  line: string,
): LineOutcome<unknown[]> {
  const parsed = parseObject(line);
  if (!parsed.ok) return parsed;
  const object = parsed.record;
  for (const field of spec.fields)
    if (!Object.hasOwn(object, field.key))
      return reject(
        `no "${field.key}" key ($${field.variable}); the log was written with another log_format`,
      );
  return {
    ok: true,
    record: variables.map((variable) => {
      const field = spec.fields.find((candidate) => candidate.variable === variable);
      const value = field === undefined ? undefined : object[field.key];
      return value === undefined || typeof value === 'string' || typeof value === 'number'
        ? value
        : JSON.stringify(value);
    }),
  };
}
