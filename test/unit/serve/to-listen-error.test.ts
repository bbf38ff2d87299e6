import { describe, expect, it } from 'vitest';
import { ListenError } from '../../../src/shared/errors.js';
import { toListenError } from '../../../src/serve/to-listen-error.js';

// Why serve could not listen, named by its flag with a fix that works.

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`listen ${code}`), { code, syscall: 'listen' });
}

const target = { bind: '127.0.0.1', port: 8090, hostAddresses: ['127.0.0.1', '192.0.2.7'] };

describe('toListenError', () => {
  it.each([
    [
      'EADDRINUSE',
      { ...target },
      '--port 8090: 127.0.0.1:8090 is already in use by another program',
      /pass another --port \(PERF_PORT\), e\.g\. --port 8091$/,
    ],
    [
      'EACCES',
      { ...target, port: 80 },
      '--port 80: not allowed to listen on 127.0.0.1:80 (ports below 1024 need root)',
      /e\.g\. --port 8090$/,
    ],
    [
      'EADDRNOTAVAIL',
      { ...target, bind: '10.255.255.1' },
      '--bind 10.255.255.1: this host has no such address',
      /^pass one of this host's addresses \(127\.0\.0\.1, 192\.0\.2\.7\), or 0\.0\.0\.0/,
    ],
    [
      'ENOTFOUND',
      { ...target, bind: '999.1.1.1' },
      '--bind 999.1.1.1: neither an IP address nor a host name this host resolves',
      /^pass one of this host's addresses \(127\.0\.0\.1, 192\.0\.2\.7\)/,
    ],
  ])('%s', (code, listen, message, hint) => {
    const error = errno(code);
    const mapped = toListenError(error, listen);
    expect(mapped).toBeInstanceOf(ListenError);
    expect(mapped).toMatchObject({ code: 'ROCMPERF_LISTEN', exitCode: 2, message, cause: error });
    expect((mapped as ListenError).hint).toMatch(hint);
  });

  it('passes anything else through unchanged', () => {
    const error = new TypeError('bug');
    expect(toListenError(error, target)).toBe(error);
  });
});
