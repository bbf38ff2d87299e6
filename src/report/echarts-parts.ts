import { BarChart, CustomChart, LineChart } from 'echarts/charts';
import {
  AxisPointerComponent,
  DataZoomInsideComponent,
  DataZoomSliderComponent,
  GridComponent,
  LegendPlainComponent,
  LegendScrollComponent,
  MarkAreaComponent,
  MarkLineComponent,
  TitleComponent,
  TooltipComponent,
} from 'echarts/components';

// The parts of ECharts the timeline chart uses (buildChartOption, interactive or not), without a renderer. The page
// bundles only these (about half of echarts.min.js), so its script loads faster; a chart option that needs a part
// not listed here is caught by test/unit/report/echarts-parts.test.ts.

export const TIMELINE_CHART_PARTS = [
  CustomChart,
  LineChart,
  AxisPointerComponent,
  DataZoomInsideComponent,
  DataZoomSliderComponent,
  GridComponent,
  LegendPlainComponent,
  LegendScrollComponent,
  MarkAreaComponent,
  MarkLineComponent,
  TitleComponent,
  TooltipComponent,
];

/**
 * The parts the server-side SVG charts use: the timeline's, and bars for the targets chart. `report` loads only these
 * (with the SVG renderer), not the whole of ECharts; test/unit/report/echarts-parts.test.ts holds both charts equal
 * to what the whole of ECharts draws.
 */
export const SVG_CHART_PARTS = [...TIMELINE_CHART_PARTS, BarChart];
