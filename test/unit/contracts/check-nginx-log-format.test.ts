import { describe, expect, it } from 'vitest';
import { renderShippedSccacheModule } from '../../../src/collect/logs/render-shipped-sccache-module.js';
import {
  checkNginxLogFormat,
  type CheckNginxLogFormatOptions,
} from '../../../src/contracts/check-nginx-log-format.js';
import { matching, readRepoFile } from './repo-files.js';

const confPath = '.builders/nginx-sccache.conf';
const confText = readRepoFile(confPath);
const fleetLog = { fleetPath: 'fleet.yaml', path: '/var/log/nginx/sccache.json.log', line: 24 };

function check(text: string, extra: Partial<CheckNginxLogFormatOptions> = {}) {
  return checkNginxLogFormat({ confText: text, confPath, fleetLog, ...extra });
}

function lineOf(text: string, needle: string): number {
  return text.split('\n').findIndex((line) => line.includes(needle)) + 1;
}

describe('checkNginxLogFormat', () => {
  it('agrees on the shipped conf, its embedded copy and fleet.yaml', () => {
    const result = check(confText, {
      embedded: { path: 'gen.ts', text: renderShippedSccacheModule(confText) },
    });
    expect(result.problems).toEqual([]);
    expect(result.notes).toEqual([
      '13 fields, escape=json: ts, msec, remote_addr, method, uri, status, request_length, content_length, body_bytes_sent, bytes_sent, request_time, ua, completion',
    ]);
  });

  it('names a field the parser needs that the conf no longer logs', () => {
    const text = confText.replace('"method":"$request_method",', '"verb":"$request_verb",');
    const result = check(text);
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([
      {
        message: matching(/cannot be derived from it: .*needs \$request_method/),
        producer: { file: confPath, line: lineOf(text, 'log_format sccache_json') },
        consumer: { file: 'src/collect/logs/classify-sccache.ts', line: undefined },
      },
    ]);
  });

  it('names a renamed log key: the built CLI embeds the old conf', () => {
    const text = confText.replace('"status":$status', '"code":$status');
    const result = check(text, {
      embedded: {
        path: 'src/collect/logs/shipped-sccache-conf.generated.ts',
        text: renderShippedSccacheModule(confText),
      },
    });
    expect(result.problems.map((problem) => problem.message)).toEqual([
      matching(
        /shipped-sccache-conf\.generated\.ts embeds another version of the conf, so the built CLI parses with a stale log_format/,
      ),
    ]);
  });

  it('names an unquoted variable that can be empty, at its line', () => {
    const text = confText.replace('"content_length":"$content_length"', '"content_length":$content_length');
    const result = check(text);
    expect(result.problems).toEqual([
      {
        message: matching(
          /^"content_length":\$content_length is unquoted, but \$content_length can be empty/,
        ),
        producer: { file: confPath, line: lineOf(text, '$content_length') },
        consumer: { file: 'src/collect/logs/parse-log-format.ts', line: undefined },
      },
    ]);
  });

  it('names a format without escape=json', () => {
    const result = check(confText.replace('log_format sccache_json escape=json', 'log_format sccache_json'));
    expect(result.problems[0]?.message).toMatch(/escape=default is not supported/);
  });

  it('names a conf that drops the log_format or the access_log', () => {
    expect(
      check(confText.replaceAll('sccache_json', 'main_json')).problems.map((problem) => problem.message),
    ).toEqual([
      matching(/no `log_format sccache_json` directive/),
      matching(/no `access_log <file> sccache_json;`/),
    ]);
  });

  it('names an access_log path that is not the one fleet.yaml slices', () => {
    const text = confText.replace('/var/log/nginx/sccache.json.log', '/var/log/nginx/access.log');
    expect(check(text).problems).toEqual([
      {
        message:
          'nginx writes the sccache log to `/var/log/nginx/access.log` but fleet.yaml sccache.log.path is `/var/log/nginx/sccache.json.log`. Fix: make them the same file.',
        producer: { file: confPath, line: lineOf(text, 'access_log') },
        consumer: { file: 'fleet.yaml', line: 24 },
      },
    ]);
  });

  it('compares a deployed conf with the shipped one, key by key', () => {
    const deployed = confText
      .replace('"ua":"$http_user_agent",', '"agent":"$http_user_agent",')
      .replace('"msec":$msec', '"msec":"$msec"');
    const result = check(deployed, {
      confPath: 'builder@strix:/etc/nginx/conf.d/sccache.conf',
      pair: 'nginx-deployed-conf',
      shipped: { confText, confPath },
    });
    expect(result.pair).toBe('nginx-deployed-conf');
    expect(result.problems.map((problem) => problem.message.replace(/ Fix:.*/, ''))).toEqual([
      'deployed log_format has "msec":"$msec" where the shipped one has "msec":$msec.',
      'deployed log_format has nothing where the shipped one has "ua":"$http_user_agent".',
    ]);
    expect(result.problems[1]?.consumer).toEqual({
      file: confPath,
      line: lineOf(confText, '$http_user_agent'),
    });
  });
});
