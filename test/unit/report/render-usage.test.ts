// The step-usage figures as report.md, the page's tables and diff show them, from the shipped warm sample's
// data.json with its recorded usage taken out and pytorch's filled in by hand (every figure below is ours).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DataFileSchema, type DataFile, type TargetUsage } from '../../../src/artifacts/index.js';
import { buildRunDiff } from '../../../src/diff/build-run-diff.js';
import { renderRunDiffMd } from '../../../src/diff/render-run-diff-md.js';
import { renderReportMd } from '../../../src/report/render-report-md.js';
import { renderSummaryHtml } from '../../../src/report/render-summary-html.js';

const sample = (): DataFile => {
  const recorded = DataFileSchema.parse(
    JSON.parse(
      readFileSync(new URL('../../../fixtures/runs/gfx1201-warm/data.json', import.meta.url), 'utf8'),
    ),
  );
  const targets = recorded.summary.targets.map((t) => ({ ...t, usage: null }));
  const nodes = recorded.summary.nodes.map((n) => ({ ...n, usage: null }));
  return DataFileSchema.parse({ ...recorded, summary: { ...recorded.summary, targets, nodes } });
};

const usage = (
  cpuSeconds: number,
  memoryPeakBytes: number,
  flags: TargetUsage['steps'][number]['flags'],
): TargetUsage => ({
  cpuSeconds,
  memoryPeakBytes,
  ioReadBytes: 1e6,
  ioWriteBytes: 2e6,
  pidsPeak: 4,
  oomEvents: flags.includes('oom') ? 1 : 0,
  steps: [
    {
      vertex: 'sha256:aa',
      name: '[2/3] RUN box-compile -target pytorch -units 40 -out /out',
      source: 'cgroup',
      cpuSeconds,
      memoryPeakBytes,
      ioReadBytes: 1e6,
      ioWriteBytes: 2e6,
      pidsPeak: 4,
      oomEvents: flags.includes('oom') ? 1 : 0,
      flags,
    },
  ],
});

function withUsage(
  model: DataFile,
  cpuSeconds: number,
  peak: number,
  flags: TargetUsage['steps'][number]['flags'],
): DataFile {
  const targets = model.summary.targets.map((t) =>
    t.target === 'pytorch' ? { ...t, usage: usage(cpuSeconds, peak, flags) } : t,
  );
  const node = targets.find((t) => t.target === 'pytorch')!.node;
  const nodes = model.summary.nodes.map((n) =>
    n.node === node
      ? {
          ...n,
          usage: {
            cpuSeconds,
            memoryPeakBytes: peak,
            ioReadBytes: 1e6,
            ioWriteBytes: 2e6,
            pidsPeak: 4,
            oomEvents: 0,
            memoryBytes: 64e9,
          },
        }
      : n,
  );
  return DataFileSchema.parse({ ...model, summary: { ...model.summary, targets, nodes } });
}

describe('step usage in the views', () => {
  it('report.md has a row per RUN step and the node totals beside its memory; none without usage', () => {
    const charts = { timeline: 'timeline.svg', targets: 'targets.svg' };
    expect(renderReportMd({ model: sample(), charts })).not.toContain('What each step used');
    const md = renderReportMd({ model: withUsage(sample(), 812.5, 60.1e9, ['memory-near-limit']), charts });
    expect(md).toContain('## What each step used (warm)');
    expect(md).toContain(
      '| pytorch | `RUN box-compile -target pytorch -units 40 -out /out` | cgroup | 13m33s | 60.1 GB | 1.00 MB / 2.00 MB | 4 | 0 | memory-near-limit |',
    );
    expect(md).toMatch(/\| \S+ \| 13m33s \| 60\.1 GB \| 1\.00 MB \/ 2\.00 MB \| 4 \| 0 \| 64\.0 GB \|/);
  });

  it('the page shows the same rows', () => {
    const html = renderSummaryHtml(withUsage(sample(), 812.5, 60.1e9, ['oom']));
    expect(html).toContain('<h2 id="step-usage">What each step used');
    expect(html).toContain(
      '<td>RUN box-compile -target pytorch -units 40 -out /out</td><td>cgroup</td><td>13m33s</td><td>60.1 GB</td>',
    );
    expect(html).toContain('<td>oom</td>');
  });

  it('diff gives each target’s CPU and memory peak change, and its flags', () => {
    const diff = buildRunDiff({
      a: { model: withUsage(sample(), 800, 50e9, []) },
      b: { model: withUsage(sample(), 812.5, 60.1e9, ['memory-near-limit']) },
    });
    const pytorch = diff.targets.find((t) => t.target === 'pytorch')!;
    expect(pytorch.usage.cpuSeconds).toEqual({ a: 800, b: 812.5, delta: 12.5, pct: 1.6 });
    expect(pytorch.usage.memoryPeakBytes.delta).toBe(10.1e9);
    expect(pytorch.usage.flags).toEqual({ a: [], b: ['memory-near-limit'] });
    const md = renderRunDiffMd(diff);
    expect(md).toContain('## What each target used (RUN steps)');
    expect(md).toContain(
      '| pytorch | 13m20s → 13m33s | +13.00s (+2%) | 50.0 GB → 60.1 GB | +10.1 GB (+20%) | — → memory-near-limit |',
    );
  });
});
