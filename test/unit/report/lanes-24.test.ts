import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LegendComponentOption, LineSeriesOption } from 'echarts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANES_24_RUN, writeFixtureRun } from '../../../scripts/make-fixture-run.js';
import type { DataFile } from '../../../src/artifacts/index.js';
import {
  buildChartLayoutFor,
  buildChartOption,
  cpuLineName,
} from '../../../src/report/build-chart-option.js';
import { buildReportModel } from '../../../src/report/build-model.js';
import { readRunInputs } from '../../../src/run-dir/read-run-dir.js';
import { buildTimeExtent } from '../../../src/report/build-plan-marks.js';
import { CHART_WIDTH_PX, PLOT_LEFT_PX, PLOT_RIGHT_PX } from '../../../src/report/chart-style.js';
import {
  BAR_LABEL_PADDING_PX,
  estimateBarLabelWidthPx,
  fitBarLabel,
  MIN_LABEL_CHARS,
} from '../../../src/report/fit-bar-label.js';
import { buildPointsPerSeries } from '../../../src/report/build-series.js';
import { serialiseModel } from '../../../src/report/write-report.js';
import { openRunDir } from '../../../src/run-dir/open-run-dir.js';

// Issue 18 item 3: 24 nodes, 100 targets, 6 hours. Sampled every 10 s here, not 1 s, to stay fast (2,160 raw
// points per series, still over the 500-point budget 48 series get, so every series is downsampled); the 1 Hz run
// is `npm run bench:report`'s.

const SERIES_POINT_BUDGET = 500;
const DATA_JSON_MAX_BYTES = 5_000_000;
let dir: string;
let model: DataFile;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'rocm-perf-lanes24-'));
  await writeFixtureRun({
    ...LANES_24_RUN,
    sampleIntervalMs: 10_000,
    dir: path.join(dir, LANES_24_RUN.stamp),
  });
  model = buildReportModel(
    await readRunInputs({ runDir: openRunDir(path.join(dir, LANES_24_RUN.stamp)), generatedAtMs: 1 }),
  );
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a 24-node, 100-target, 6-hour run', () => {
  it(`gives a data.json under 5 MB, each series downsampled to ${SERIES_POINT_BUDGET} points`, () => {
    expect(model.timeline.lanes).toHaveLength(24);
    expect(model.summary.targets).toHaveLength(100);
    expect(Buffer.byteLength(serialiseModel(model))).toBeLessThanOrEqual(DATA_JSON_MAX_BYTES);
    expect(model.series).toHaveLength(48);
    expect(buildPointsPerSeries(model.series.length)).toBe(SERIES_POINT_BUDGET);
    for (const series of model.series) {
      const gaps = series.points.filter(([, v]) => v === null).length;
      expect(series.points.length - gaps).toBeLessThanOrEqual(SERIES_POINT_BUDGET);
      expect(series.points.length).toBeGreaterThan(SERIES_POINT_BUDGET / 2);
    }
  });

  it('labels bars so that no two labels in a lane overlap and none leaves its bar', () => {
    const { startMs, endMs, spanMs } = buildTimeExtent(model);
    const [min, max] = [startMs - spanMs * 0.005, endMs + spanMs * 0.005];
    const plotPx = CHART_WIDTH_PX - PLOT_LEFT_PX - PLOT_RIGHT_PX;
    const x = (ms: number): number => ((ms - min) / (max - min)) * plotPx;
    const byLane = new Map<string, { from: number; to: number; text: string }[]>();
    let elided = 0;
    let dropped = 0;
    for (const target of new Set(model.timeline.bands.map((b) => b.target))) {
      const widest = model.timeline.bands
        .filter((b) => b.target === target)
        .sort((a, b) => b.endMs - b.startMs - (a.endMs - a.startMs))[0]!;
      const [left, right] = [x(widest.startMs), x(widest.endMs)];
      const text = fitBarLabel(target, right - left);
      if (text === undefined) {
        dropped++;
        continue;
      }
      if (text !== target) elided++;
      const label = { from: left, to: left + estimateBarLabelWidthPx(text), text };
      expect(label.to).toBeLessThanOrEqual(right);
      byLane.set(widest.node, [...(byLane.get(widest.node) ?? []), label]);
    }
    for (const labels of byLane.values()) {
      const sorted = labels.sort((a, b) => a.from - b.from);
      sorted.slice(1).forEach((label, i) => expect(label.from).toBeGreaterThanOrEqual(sorted[i]!.to));
    }
    expect([...byLane.values()].flat().length).toBeGreaterThan(50);
    expect(elided + dropped).toBeGreaterThan(0);
  });

  it('grows the chart by a fixed height per lane and puts the Gantt under every legend row', () => {
    const layout = buildChartLayoutFor(model);
    expect(layout.ganttHeightPx).toBe(24 * 46);
    const option = buildChartOption(model, { interactive: false });
    const legends = option.legend as LegendComponentOption[];
    expect(legends.map((l) => l.id)).toEqual(['builders', 'lines', 'keys']);
    expect(Number(legends.at(-1)!.top) + 24).toBeLessThanOrEqual(layout.ganttTopPx);
    expect(layout.usageHeightPx).toBe(190 + 14 * 8);
    expect(legends[1]!.data).toEqual(model.timeline.lanes.map((l) => cpuLineName(l.node)));
  });

  it("turning a node's CPU line off leaves every other line; turning its builder off empties both its lines", () => {
    const [first, second] = model.timeline.lanes;
    const lines = (selected: Record<string, boolean>): LineSeriesOption[] =>
      (buildChartOption(model, { interactive: true, selected }).series as LineSeriesOption[]).filter(
        (s) => s.type === 'line',
      );
    expect(
      lines({})
        .filter((s) => s.name === cpuLineName(first!.node))
        .map((s) => s.id),
    ).toEqual([`cpu:${first!.node}`]);
    const withoutBuilder = lines({ [first!.builder]: false });
    const empty = withoutBuilder.filter((s) => (s.data as unknown[]).length === 0).map((s) => s.id);
    expect(empty.sort()).toEqual([`cpu:${first!.node}`, `mem:${first!.node}`]);
    expect(withoutBuilder.find((s) => s.id === `cpu:${second!.node}`)?.data).not.toHaveLength(0);
  });
});

describe('fitBarLabel', () => {
  it('keeps a name that fits, elides one that does not, drops it below the minimum', () => {
    expect(fitBarLabel('triton-wheel', 200)).toBe('triton-wheel');
    const elided = fitBarLabel('triton-wheel', 60)!;
    expect(elided.endsWith('…')).toBe(true);
    expect(estimateBarLabelWidthPx(elided)).toBeLessThanOrEqual(60);
    expect(
      fitBarLabel('triton-wheel', MIN_LABEL_CHARS * 6.8 + 11 + 2 * BAR_LABEL_PADDING_PX - 1),
    ).toBeUndefined();
  });
});
