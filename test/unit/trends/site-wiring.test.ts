import { describe, expect, it } from 'vitest';
import { buildSite } from '../../../src/publish/index.js';
import { routeRequest } from '../../../src/serve/route-request.js';
import { makeModel } from '../diff/make-model.js';

// trends.html on the published site (listing the runs, linked from the top page) and serve's route to it.

const target = (buildS: number) => [{ target: 'pytorch', node: 'forge', startS: 0, endS: 600, buildS }];
const runs = [
  { stamp: '20260301T000000Z', model: makeModel({ stamp: '20260301T000000Z', targets: target(100) }) },
  { stamp: '20260302T000000Z', model: makeModel({ stamp: '20260302T000000Z', targets: target(110) }) },
  {
    stamp: '20260303T000000Z',
    model: makeModel({ stamp: '20260303T000000Z', harness: 'cold', targets: target(500) }),
  },
].map((r) => ({ ...r, svgs: { timeline: '<svg/>', targets: '<svg/>' } }));

describe('publish: trends.html', () => {
  const files = new Map(buildSite({ runs, assets: {} }).map((f) => [f.path, f.content.toString('utf8')]));

  it('is a page of the site, listing each harness and its runs', () => {
    const page = files.get('trends.html')!;
    expect(page).toContain('<h2>cold harness, lane fleet — 1 run</h2>');
    expect(page).toContain('<h2>warm harness, lane fleet — 2 runs</h2>');
    expect(page).toContain('No regression in the latest run (20260302T000000Z).');
    expect(page).toContain('<a href="./">← all runs</a>');
  });

  it('is linked from the top page', () => {
    expect(files.get('index.html')).toContain(
      '<a id="trends-link" href="trends.html">Trends across runs</a>',
    );
  });
});

describe('serve: the trends route', () => {
  it.each([['/trends.html'], ['/trends.html?x=1']])('%s routes to trends', (url) => {
    expect(routeRequest(url)).toEqual({ kind: 'trends' });
  });

  it('only at the top', () => {
    expect(routeRequest('/x/trends.html')).toEqual({ kind: 'not-found' });
    expect(routeRequest('/trends.html/x')).toEqual({ kind: 'not-found' });
  });
});
