// 10,000 mutated lines into each log parser: nothing throws and every line is accounted for
// (lines == records + skipped + rejected). Agreement with the oracles: parser-equivalence.test.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedLines } from './seed-lines.js';
import { createRandom } from '../../../../bench/generate-logs.js';
import { toByteLine } from '../../../../src/collect/logs/byte-line.js';
import { createRegistryLineParser } from '../../../../src/collect/logs/create-registry-line-parser.js';
import { createSccacheParser } from '../../../../src/collect/logs/create-shipped-sccache-parser.js';
import type { LogLineParser } from '../../../../src/collect/logs/line-outcome.js';
import { createLogCursor, feedLogCursor, flushLogCursor } from '../../../../src/collect/logs/log-cursor.js';
import { parseGoDuration } from '../../../../src/collect/logs/parse-go-duration.js';
import { parseDavLocation, parseLogFormat } from '../../../../src/collect/logs/parse-log-format.js';
import { parseRfc3339Ms } from '../../../../src/collect/logs/parse-timestamp.js';
import { ParseError } from '../../../../src/shared/errors.js';

const alphabet = [
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
  '\r',
  '0',
  '9',
  '-',
  '.',
  'e',
  'u',
  'é',
  '\uFFFD',
  '\u0000',
  '\u2028',
  'null',
  '"HTTP API"',
  '\\u00',
  '%3A',
  '\\"',
];

/** One random mutation: flip, insert, delete, truncate, duplicate or splice in a token. */
function mutate(line: string, random: () => number): string {
  const at = Math.floor(random() * (line.length + 1));
  const token = alphabet[Math.floor(random() * alphabet.length)] ?? '';
  switch (Math.floor(random() * 6)) {
    case 0:
      return line.slice(0, at) + String.fromCharCode(Math.floor(random() * 0x250)) + line.slice(at + 1);
    case 1:
      return line.slice(0, at) + token + line.slice(at);
    case 2:
      return line.slice(0, at) + line.slice(at + 1 + Math.floor(random() * 20));
    case 3:
      return line.slice(0, at);
    case 4:
      return line.slice(0, at) + line.slice(Math.floor(random() * line.length));
    default:
      return line.slice(0, at) + token + line.slice(at + token.length);
  }
}

function mutatedLines(seeds: string[], count: number, seed: number): string[] {
  const random = createRandom(seed);
  return Array.from({ length: count }, () => {
    let line = seeds[Math.floor(random() * seeds.length)] ?? '';
    const rounds = 1 + Math.floor(random() * 3);
    for (let i = 0; i < rounds; i++) line = mutate(line, random);
    return line.replaceAll('\n', ' ');
  });
}

function findThrowing(lines: string[], parse: (line: string) => unknown): string[] {
  return lines.filter((line) => {
    try {
      parse(line);
      return false;
    } catch {
      return true;
    }
  });
}

function accountFor(parser: LogLineParser<{ tsMs: number }>, lines: string[]) {
  expect(findThrowing(lines, (line) => parser.parseLine(toByteLine(line)))).toEqual([]);
  const cursor = createLogCursor('fuzz');
  const feed = { parser, window: { slackMs: 0 } };
  const bytes = Buffer.from(`${lines.join('\n')}\n`);
  for (let offset = 0; offset < bytes.length; offset += 4093)
    feedLogCursor(cursor, bytes.subarray(offset, offset + 4093), feed);
  flushLogCursor(cursor, feed);
  const { stats } = cursor;
  expect(stats.lines).toBe(lines.length);
  expect(stats.records + stats.skipped + stats.rejected).toBe(lines.length);
  expect(stats.bytes).toBe(bytes.length);
  return stats;
}

// CPU-bound and deterministic; the timeout only allows for a loaded machine.
describe('fuzz: 10,000 mutated lines per parser', { timeout: 60_000 }, () => {
  it('sccache (nginx, shipped log_format)', () => {
    const stats = accountFor(
      createSccacheParser(),
      mutatedLines(seedLines('nginx/sccache-session.log'), 10_000, 11),
    );
    expect(stats.records).toBeGreaterThan(500);
    expect(stats.rejected).toBeGreaterThan(1000);
  });

  it.each(['slog', 'zerolog'])('zot (%s layout)', (layout) => {
    const lines = mutatedLines(
      seedLines(`registry/zot-${layout}-push.jsonl`),
      10_000,
      layout === 'slog' ? 12 : 13,
    );
    const stats = accountFor(createRegistryLineParser({ format: 'zot' }), lines);
    expect(stats.records).toBeGreaterThan(1000);
  });

  it('docker-registry (Distribution JSON)', () => {
    const stats = accountFor(
      createRegistryLineParser({ format: 'distribution' }),
      mutatedLines(seedLines('registry/distribution-push.log'), 10_000, 14),
    );
    expect(stats.records).toBeGreaterThan(500);
  });

  it('Go durations and RFC 3339 timestamps never throw', () => {
    const texts = mutatedLines(
      [
        '1h2m3.5s',
        '81.964986ms',
        '8.246µs',
        '0s',
        '2026-03-14T09:21:07.412893514Z',
        '2026-03-14T09:30:01+00:00',
      ],
      10_000,
      16,
    );
    expect(findThrowing(texts, parseGoDuration)).toEqual([]);
    expect(findThrowing(texts, parseRfc3339Ms)).toEqual([]);
  });

  it('log_format: a mutated conf parses or throws ParseError, nothing else', () => {
    const conf = readFileSync(
      path.resolve(import.meta.dirname, '../../../../.builders/nginx-sccache.conf'),
      'utf8',
    );
    const random = createRandom(17);
    for (let i = 0; i < 2000; i++) {
      let text = conf;
      for (let round = 0; round < 3; round++) text = mutate(text, random);
      try {
        parseLogFormat(text, 'sccache_json');
        parseDavLocation(text);
      } catch (error) {
        expect(error).toBeInstanceOf(ParseError);
      }
    }
  });
});
