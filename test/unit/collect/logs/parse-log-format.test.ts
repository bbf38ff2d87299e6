import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDavLocation, parseLogFormat } from '../../../../src/collect/logs/parse-log-format.js';
import { renderShippedSccacheModule } from '../../../../src/collect/logs/render-shipped-sccache-module.js';
import { shippedSccacheConf } from '../../../../src/collect/logs/shipped-sccache-conf.generated.js';
import { ParseError } from '../../../../src/shared/errors.js';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const confPath = path.join(repoRoot, '.builders/nginx-sccache.conf');

describe('parseLogFormat', () => {
  it('derives key, variable and quoting for every field of the shipped sccache_json format', () => {
    const spec = parseLogFormat(readFileSync(confPath, 'utf8'), 'sccache_json');
    expect(spec.escape).toBe('json');
    expect(spec.fields).toEqual([
      { key: 'ts', variable: 'time_iso8601', quoted: true },
      { key: 'msec', variable: 'msec', quoted: false },
      { key: 'remote_addr', variable: 'remote_addr', quoted: true },
      { key: 'method', variable: 'request_method', quoted: true },
      { key: 'uri', variable: 'uri', quoted: true },
      { key: 'status', variable: 'status', quoted: false },
      { key: 'request_length', variable: 'request_length', quoted: false },
      { key: 'content_length', variable: 'content_length', quoted: true },
      { key: 'body_bytes_sent', variable: 'body_bytes_sent', quoted: false },
      { key: 'bytes_sent', variable: 'bytes_sent', quoted: false },
      { key: 'request_time', variable: 'request_time', quoted: false },
      { key: 'ua', variable: 'http_user_agent', quoted: true },
      { key: 'completion', variable: 'request_completion', quoted: true },
    ]);
    expect(spec.literals[0]).toBe('{"ts":"');
    expect(spec.literals.at(-1)).toBe('"}');
  });

  it('handles ${var}, double quotes with escapes, comments and no escape= parameter', () => {
    const conf = `# log_format other '{}';\nlog_format x "{\\"a\\":\${status},\\"b\\":\\"$uri\\"}"; # trailing`;
    const spec = parseLogFormat(conf, 'x');
    expect(spec.escape).toBe('default');
    expect(spec.fields).toEqual([
      { key: 'a', variable: 'status', quoted: false },
      { key: 'b', variable: 'uri', quoted: true },
    ]);
  });

  it.each([
    ['log_format y \'{"a":"$status"}\';', 'no `log_format sccache_json` directive'],
    ['log_format sccache_json \'{"a":"$uri-$status"}\';', '$uri is not a whole JSON value'],
    ['log_format sccache_json \'{"a":$status\';', 'does not produce JSON'],
  ])('rejects %s naming the fix', (conf, message) => {
    expect(() => parseLogFormat(conf, 'sccache_json')).toThrow(ParseError);
    expect(() => parseLogFormat(conf, 'sccache_json')).toThrow(message);
  });

  it('finds the WebDAV location', () => {
    expect(parseDavLocation(readFileSync(confPath, 'utf8'))).toBe('/sccache/');
    expect(parseDavLocation('server { location / { root /x; } }')).toBeUndefined();
  });
});

describe('the embedded conf', () => {
  it('is the shipped .builders/nginx-sccache.conf (run `npm run embed:sccache-conf` after editing the conf)', () => {
    const generated = readFileSync(
      path.join(repoRoot, 'src/collect/logs/shipped-sccache-conf.generated.ts'),
      'utf8',
    );
    expect(generated).toBe(renderShippedSccacheModule(readFileSync(confPath, 'utf8')));
    expect(shippedSccacheConf).toBe(readFileSync(confPath, 'utf8'));
  });
});
