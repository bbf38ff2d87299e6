import { describe, expect, it } from 'vitest';
import { buildReportModel } from '../../../src/report/build-model.js';
import { renderReportMd } from '../../../src/report/render-report-md.js';
import { makeRunFile, makeRunInputs } from './make-run-inputs.js';

// The report says where its node samples came from: rocm-perf's own scrapes, or the fleet's Prometheus.

const charts = { timeline: 'timeline.svg', targets: 'targets.svg' };

describe('the sample source in the report', () => {
  it('node_exporter scrapes: data.json keeps the source and interval; report.md says it', () => {
    const model = buildReportModel(
      makeRunInputs({ run: makeRunFile({ samples: { source: 'node_exporter', intervalMs: 2000 } }) }),
    );
    expect(model.run.samples).toEqual({ source: 'node_exporter', intervalMs: 2000, prometheusUrl: null });
    expect(renderReportMd({ model, charts })).toContain(
      "Node samples: scraped by rocm-perf from each node's node_exporter every 2 s.",
    );
  });

  it('Prometheus: names the server and says rocm-perf did not scrape', () => {
    const samples = {
      source: 'prometheus' as const,
      intervalMs: 500,
      prometheusUrl: 'http://prom.test:9090',
    };
    const model = buildReportModel(makeRunInputs({ run: makeRunFile({ samples }) }));
    expect(model.run.samples).toEqual(samples);
    expect(renderReportMd({ model, charts })).toContain(
      'Node samples: from Prometheus at http://prom.test:9090 (every 500 ms; live by instant queries, the whole window by query_range at the end), not scraped by rocm-perf.',
    );
  });

  it('an older run.json without it: null, and no line', () => {
    const model = buildReportModel(makeRunInputs({ run: makeRunFile() }));
    expect(model.run.samples).toBeNull();
    expect(renderReportMd({ model, charts })).not.toContain('Node samples:');
  });
});
