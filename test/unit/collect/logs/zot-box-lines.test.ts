// The fleet in a box writes Zot session lines through its own proxy (test/fleet/zot-proxy.ts): they must look like
// the real Zot v2 lines (test/fixtures/registry/zot-real-session-v2.jsonl) key for key, in Zot's order, and read the
// same through the parser.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toByteLine } from '../../../../src/collect/logs/byte-line.js';
import { parseRfc3339Ms } from '../../../../src/collect/logs/parse-timestamp.js';
import { parseZotLine } from '../../../../src/collect/logs/parse-zot-line.js';
import { buildZotSessionLine, toZotPath } from '../../../fleet/zot-session-line.js';

const realLines = readFileSync(
  path.resolve(import.meta.dirname, '../../../fixtures/registry/zot-real-session-v2.jsonl'),
  'utf8',
)
  .split('\n')
  .filter(Boolean)
  .map((line) => ({ line, fields: JSON.parse(line) as Record<string, unknown> }));

/** The box's line for the same request the real line logs. */
function toBoxLine(real: Record<string, unknown>): string {
  const [ip = '', port = '0'] = String(real.clientIP).split(':');
  const headers = real.headers as Record<string, string[]>;
  return buildZotSessionLine({
    timeMs: parseRfc3339Ms(String(real.time)) ?? Number.NaN,
    clientIp: ip,
    clientPort: Number(port),
    method: String(real.method),
    path: toZotPath(String(real.path)),
    statusCode: Number(real.statusCode),
    latencyMs: 0,
    bodySizeBytes: Number(real.bodySize),
    headers: Object.fromEntries(
      Object.entries(headers).map(([name, values]) => [name.toLowerCase(), values]),
    ),
    goroutine: 1,
  });
}

describe("the box's Zot lines against real Zot v2 lines", () => {
  it.each(realLines)('same keys in the same order: $fields.method $fields.path', ({ fields }) => {
    const box = Object.keys(JSON.parse(toBoxLine(fields)) as object);
    // The real capture was cut after `headers`; the box keeps what Zot's source writes after it. The box has no
    // authentication, so it never writes `username` (Zot writes it only for an authenticated request).
    expect(box.slice(0, box.indexOf('headers') + 1)).toEqual(
      Object.keys(fields).filter((key) => key !== 'username'),
    );
    expect(box.slice(box.indexOf('headers') + 1)).toEqual(['caller', 'func', 'goroutine']);
  });

  it.each(realLines)('reads the same: $fields.method $fields.path', ({ line, fields }) => {
    const real = parseZotLine(toByteLine(line));
    const box = parseZotLine(toByteLine(toBoxLine(fields)));
    if (!real.ok || !box.ok) throw new Error(`not read: ${JSON.stringify([real, box])}`);
    // Nanoseconds survive the box's float milliseconds only to within a few: compare to the microsecond.
    expect({ ...box.record, tsMs: 0 }).toEqual({ ...real.record, tsMs: 0 });
    expect(box.record.tsMs).toBeCloseTo(real.record.tsMs, 3);
  });
});
