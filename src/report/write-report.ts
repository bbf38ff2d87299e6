import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { DataFile } from '../artifacts/index.js';
import { writeFileAtomic } from '../shared/write-file-atomic.js';
import { readPageAssets } from './page-assets.js';
import type { ReportCharts } from './render-chart-svg.js';
import { renderHtml } from './render-html.js';
import { renderReportMd } from './render-report-md.js';
import { noteRunInIndex } from './run-index.js';

// Writes a run's report files into its dir: data.json, report.md with timeline.svg and targets.svg beside it,
// index.html (carrying timeline.svg as its first paint) with report-page.js beside it. Each file is written beside and renamed, so a
// reader (serve, a browser polling data.json) never sees half a file.

const REPORT_FILES = {
  data: 'data.json',
  markdown: 'report.md',
  timeline: 'timeline.svg',
  targets: 'targets.svg',
  html: 'index.html',
} as const;

export function serialiseModel(model: DataFile): string {
  return `${JSON.stringify(model)}\n`;
}

export interface WriteReportOptions {
  dir: string;
  model: DataFile;
  /**
   * The model's two charts (startChartThread), drawn from it as measured (why and advice add no mark to them); awaited
   * only once data.json and report.md are made, which need no chart.
   */
  charts: ReportCharts | Promise<ReportCharts>;
}

/** Renders everything first (so a render failure writes nothing), then writes. Returns the paths written. */
export async function writeReport({ dir, model, charts }: WriteReportOptions): Promise<string[]> {
  const assets = await readPageAssets();
  const data = serialiseModel(model);
  const markdown = renderReportMd({
    model,
    charts: { timeline: REPORT_FILES.timeline, targets: REPORT_FILES.targets },
  });
  const { timeline, targets } = await charts;
  const files: [string, string | Buffer][] = [
    [REPORT_FILES.data, data],
    [REPORT_FILES.timeline, timeline],
    [REPORT_FILES.targets, targets],
    [REPORT_FILES.markdown, markdown],
    [REPORT_FILES.html, renderHtml({ model, assetBase: './', chartSvg: timeline })],
    ...(Object.entries(assets) as [string, Buffer][]),
  ];
  await mkdir(dir, { recursive: true });
  for (const [name, content] of files) await writeFileAtomic(path.join(dir, name), content);
  // The runs root's index (docs/history.md), when it keeps one, gets this run's summary now.
  await noteRunInIndex(dir);
  return files.map(([name]) => path.join(dir, name));
}
