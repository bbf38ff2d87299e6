import { describe, expect, it } from 'vitest';
import { buildReportModel } from '../../../src/report/build-model.js';
import { renderHtml } from '../../../src/report/render-html.js';
import { makeRunInputs } from './make-run-inputs.js';

// index.html carries the chart's SVG in the chart's place when it is given one (its first paint), and the page
// script alone (with ECharts inside) beside it.

describe('renderHtml', () => {
  const model = buildReportModel(makeRunInputs());
  const svg =
    '<svg width="1280" height="900" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><text>plan</text></svg>';

  it('puts the given SVG inside #chart, before the note whose paint the bench times', () => {
    const html = renderHtml({ model, assetBase: './', chartSvg: svg });
    expect(html).toMatch(
      /<div id="chart" style="height:\d+px"><div id="chart-prerender"><svg width="1280" height="900"><text>plan<\/text><\/svg><p elementtiming="chart-prerender">/,
    );
    expect(html).not.toContain('http://');
    expect(html.match(/<script src="[^"]*"/g)).toEqual(['<script src="./report-page.js"']);
  });

  it('leaves the chart to ECharts without one', () => {
    const html = renderHtml({ model, assetBase: '/assets/' });
    expect(html).toMatch(/<div id="chart" style="height:\d+px"><\/div>/);
    expect(html).not.toContain('id="chart-prerender"');
  });
});
