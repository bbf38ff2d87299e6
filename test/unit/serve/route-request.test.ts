import { describe, expect, it } from 'vitest';
import { routeRequest, type Route } from '../../../src/serve/route-request.js';

// The router is serve's first line against escaping the root: every traversal spelling is refused before a path
// reaches the disk, and only the allow-listed names route to a file.

const STAMP = '20260314T092000Z';

describe('routeRequest', () => {
  it.each<[string, Route]>([
    ['/', { kind: 'index' }],
    ['/index.html?x=1', { kind: 'index' }],
    ['/trends.html', { kind: 'trends' }],
    ['/metrics', { kind: 'metrics' }],
    ['/metrics?name[]=x', { kind: 'metrics' }],
    ['/metrics/x', { kind: 'not-found' }],
    ['/assets/report-page.js', { kind: 'asset', name: 'report-page.js' }],
    [`/runs/${STAMP}`, { kind: 'run-redirect', stamp: STAMP }],
    [`/runs/${STAMP}/`, { kind: 'run-page', stamp: STAMP }],
    [`/runs/${STAMP}/index.html`, { kind: 'run-page', stamp: STAMP }],
    [`/runs/${STAMP}/data.json`, { kind: 'run-data', stamp: STAMP }],
    [`/runs/${STAMP}/report.md`, { kind: 'run-file', stamp: STAMP, file: 'report.md' }],
    [`/runs/${STAMP}/targets.svg#x`, { kind: 'run-file', stamp: STAMP, file: 'targets.svg' }],
  ])('routes %s', (url, route) => {
    expect(routeRequest(url)).toEqual(route);
  });

  it.each([
    ['/runs/../../etc/passwd', 'dot segment'],
    ['/../../../etc/passwd', 'dot segment'],
    ['/runs/%2e%2e/report.md', 'dot segment'],
    ['/runs/%2E%2E/report.md', 'dot segment'],
    ['/runs/..%2freport.md', 'dot segment'],
    ['/runs/%2e/data.json', 'dot segment'],
    ['/assets/..%2f..%2fpackage.json', 'dot segment'],
    ['/runs/%252e%252e/report.md', 'double-encoded path'],
    ['/runs/%25252e%25252e/etc/passwd', 'double-encoded path'],
    ['/runs/..%5creport.md', 'double-encoded path'],
    ['/runs/x/%00/data.json', 'double-encoded path'],
    ['/runs/..\\report.md', 'malformed path'],
    ['http://127.0.0.1/etc/passwd', 'malformed path'],
    ['/runs/%zz', 'malformed percent-encoding'],
  ])('refuses the traversal %s as a bad request (%s)', (url, reason) => {
    expect(routeRequest(url)).toEqual({ kind: 'bad-request', reason });
  });

  it.each([
    '//etc/passwd',
    '/etc/passwd',
    '/runs//etc/passwd',
    '/runs/%2fetc%2fpasswd/report.md',
    `/runs/${STAMP}/%2fetc%2fpasswd`,
    '/assets//etc/passwd',
    '/assets/index.js',
    '/runs/.full/report.md',
    `/runs/${STAMP}/run.json`,
    `/runs/${STAMP}/samples.jsonl`,
    `/runs/${STAMP}/report.md/x`,
  ])('routes the absolute path or unlisted name %s nowhere', (url) => {
    expect(routeRequest(url)).toEqual({ kind: 'not-found' });
  });
});
