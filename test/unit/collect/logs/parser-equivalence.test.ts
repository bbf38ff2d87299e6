// The log parsers against their JSON.parse oracles (reference-parsers.ts): on mutated lines (string mutations and raw
// byte flips, which make invalid UTF-8 too) every outcome equals the oracle's on the line's lenient UTF-8 decoding.
import { describe, expect, it } from 'vitest';
import { seedLines } from './seed-lines.js';
import { createRandom } from '../../../../bench/generate-logs.js';
import type { ByteLine } from '../../../../src/collect/logs/byte-line.js';
import { createNginxLineParser } from '../../../../src/collect/logs/parse-nginx-line.js';
import { parseLogFormat } from '../../../../src/collect/logs/parse-log-format.js';
import { parseZotLine } from '../../../../src/collect/logs/parse-zot-line.js';
import { shippedSccacheConf } from '../../../../src/collect/logs/shipped-sccache-conf.generated.js';
import { parseNginxValuesReference, parseZotLineReference } from './reference-parsers.js';

const tokens = [
  '"',
  '\\',
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  ' ',
  '\t',
  '0',
  '9',
  '-',
  '.',
  'µ',
  'é',
  '\u0000',
  '\u007f',
  '"Content-Length":["7"]',
  '\\u0041',
  '%3A',
];

/** A line with 1–3 random edits: a byte set to any value, a token inserted, bytes deleted, or the line cut. */
function mutateBytes(seed: Buffer, random: () => number): Buffer {
  let bytes = seed;
  for (let round = 1 + Math.floor(random() * 3); round > 0; round--) {
    const at = Math.floor(random() * (bytes.length + 1));
    const pick = Math.floor(random() * 4);
    const token = Buffer.from(tokens[Math.floor(random() * tokens.length)] ?? '');
    if (pick === 0)
      bytes = Buffer.concat([
        bytes.subarray(0, at),
        Buffer.from([Math.floor(random() * 256)]),
        bytes.subarray(at + 1),
      ]);
    else if (pick === 1) bytes = Buffer.concat([bytes.subarray(0, at), token, bytes.subarray(at)]);
    else if (pick === 2)
      bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1 + Math.floor(random() * 8))]);
    else bytes = bytes.subarray(0, at);
  }
  return Buffer.from(bytes.toString('latin1').replaceAll('\n', ' '), 'latin1');
}

/** Each mutated line inside a larger buffer (so offsets are exercised), as the cursor hands it over. */
function toChunkLine(bytes: Buffer): ByteLine {
  const chunk = Buffer.concat([Buffer.from('x\n'), bytes, Buffer.from('\ny')]);
  return { bytes: chunk, start: 2, end: 2 + bytes.length, text: chunk.toString('latin1') };
}

const pick = <T>(items: readonly T[], random: () => number): T =>
  items[Math.floor(random() * items.length)] as T;

describe('Zot lines: the parser gives what JSON.parse gives', { timeout: 60_000 }, () => {
  it.each(['slog', 'zerolog'])('%s: 20,000 mutated lines', (layout) => {
    const seeds = seedLines(`registry/zot-${layout}-push.jsonl`).map((line) => Buffer.from(line));
    const random = createRandom(layout === 'slog' ? 21 : 22);
    const disagreeing: string[] = [];
    let records = 0;
    for (let i = 0; i < 20_000; i++) {
      const bytes = mutateBytes(pick(seeds, random), random);
      const outcome = parseZotLine(toChunkLine(bytes));
      if (outcome.ok) records++;
      if (JSON.stringify(outcome) !== JSON.stringify(parseZotLineReference(bytes.toString('utf8'))))
        disagreeing.push(bytes.toString('utf8'));
    }
    expect(disagreeing).toEqual([]);
    expect(records).toBeGreaterThan(1000);
  });

  const patchLine = (layout = 'slog') =>
    seedLines(`registry/zot-${layout}-push.jsonl`).find((line) => line.includes('"method":"PATCH"')) ?? '';
  const parse = (line: string) => parseZotLine(toChunkLine(Buffer.from(line)));

  it('reads µs latencies, duplicate Content-Length keys (the last wins) and bracketed IPv6 clients', () => {
    const line = patchLine()
      .replace(/"latency":"[^"]*"/, '"latency":"8.246µs"')
      .replace(/"clientIP":"[^"]*"/, '"clientIP":"[fd00::22]:5000"')
      .replace('"headers":{', '"headers":{"Content-Length":["1"],');
    expect(parse(line)).toEqual(parseZotLineReference(line));
    expect(parse(line)).toMatchObject({
      ok: true,
      record: { durationMs: 0.008246, clientAddress: 'fd00::22' },
    });
  });

  it('takes the last of duplicate Content-Length keys, even an empty one, as JSON.parse does', () => {
    const line = patchLine()
      .replace(/"Content-Length":\["\d+"\]/, '"Content-Length":[]')
      .replace('"headers":{', '"headers":{"Content-Length":["1"],');
    expect(parse(line)).toEqual(parseZotLineReference(line));
    expect(parse(line)).toMatchObject({ ok: true, record: { requestBytes: null } });
  });

  it.each(['slog', 'zerolog'])('%s: finds the client after an optional username and component', (layout) => {
    const seed = patchLine(layout);
    const withUser = seed.replace('"module":"http"', '"module":"http","username":"ci-bot"');
    const variants = [seed, withUser];
    if (layout === 'zerolog')
      variants.push(
        seed.replace(',"component":"session"', ''),
        withUser.replace(',"component":"session"', ''),
      );
    for (const line of variants) {
      expect(parse(line)).toEqual(parseZotLineReference(line));
      expect(parse(line)).toMatchObject({
        ok: true,
        record: { clientAddress: '10.20.0.14', method: 'PATCH' },
      });
    }
  });

  it('reads escapes, non-ASCII paths and other key orders by name', () => {
    const seed = patchLine();
    for (const line of [
      seed.replace('/v2/', '/v2/\\u0041'),
      seed.replace('/v2/', '/v2/é'),
      seed.replace('{"time"', '{ "time"'),
      seed.replace(/"goroutine":\d+/, '"goroutine":1,"extra":1'),
    ]) {
      expect(parse(line)).toMatchObject({ ok: true });
      expect(parse(line)).toEqual(parseZotLineReference(line));
    }
  });
});

describe('nginx lines: the parser gives what JSON.parse by key gives', { timeout: 60_000 }, () => {
  it('20,000 mutated lines of the shipped log_format', () => {
    const spec = parseLogFormat(shippedSccacheConf, 'sccache_json');
    const variables = ['msec', 'remote_addr', 'uri', 'status', 'content_length', 'ua', 'no_such_variable'];
    const parse = createNginxLineParser(spec, variables);
    const seeds = seedLines('nginx/sccache-session.log').map((line) => Buffer.from(line));
    const random = createRandom(23);
    const disagreeing: string[] = [];
    let records = 0;
    for (let i = 0; i < 20_000; i++) {
      const bytes = mutateBytes(pick(seeds, random), random);
      const outcome = parse(toChunkLine(bytes));
      if (outcome.ok) records++;
      const reference = parseNginxValuesReference(spec, variables, bytes.toString('utf8'));
      if (JSON.stringify(outcome) !== JSON.stringify(reference)) disagreeing.push(bytes.toString('utf8'));
    }
    expect(disagreeing).toEqual([]);
    expect(records).toBeGreaterThan(1000);
  });
});
