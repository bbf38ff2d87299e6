import { z } from 'zod';
import { parseGoFloat } from '../node-exporter/parse-sample-line.js';
import { SAMPLE_FIGURES, type SampleFigure } from './build-samples-query.js';
import { formatZodIssues } from '../../shared/format-zod-issues.js';

// The Prometheus HTTP API's answer to /api/v1/query and /api/v1/query_range, checked at the boundary with zod,
// and turned into points by instance and figure (the `figure` label build-samples-query.ts stamps).

const PointSchema = z.tuple([z.number(), z.string()]);
const LabelsSchema = z.record(z.string(), z.string());

const DataSchema = z.discriminatedUnion('resultType', [
  z.object({
    resultType: z.literal('matrix'),
    result: z.array(z.object({ metric: LabelsSchema, values: z.array(PointSchema) })),
  }),
  z.object({
    resultType: z.literal('vector'),
    result: z.array(z.object({ metric: LabelsSchema, value: PointSchema })),
  }),
  z.object({ resultType: z.literal('scalar'), result: PointSchema }),
  z.object({ resultType: z.literal('string'), result: PointSchema }),
]);

const PrometheusResponseSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('success'), data: DataSchema, warnings: z.array(z.string()).optional() }),
  z.object({ status: z.literal('error'), errorType: z.string(), error: z.string() }),
]);

/** instance → figure → (evaluation time in ms → value). */
export type FigurePoints = Map<string, Map<SampleFigure, Map<number, number>>>;

export type ParsedPrometheusResponse =
  { ok: true; points: FigurePoints; warnings: string[] } | { ok: false; error: string };

const figures: ReadonlySet<string> = new Set(SAMPLE_FIGURES);

/** Unknown JSON → points, or the reason it is not an answer we can use (schema mismatch or an API error). */
export function parsePrometheusResponse(json: unknown): ParsedPrometheusResponse {
  const parsed = PrometheusResponseSchema.safeParse(json);
  if (!parsed.success) {
    const issue = formatZodIssues(parsed.error.issues, { limit: 1, root: '(top)' }) || '(top): invalid';
    return {
      ok: false,
      error: `not a Prometheus API answer: ${issue}`,
    };
  }
  const response = parsed.data;
  if (response.status === 'error') return { ok: false, error: `${response.errorType}: ${response.error}` };
  const { data } = response;
  if (data.resultType !== 'matrix' && data.resultType !== 'vector')
    return { ok: false, error: `expected a matrix or vector result, got ${data.resultType}` };
  const points: FigurePoints = new Map();
  const series =
    data.resultType === 'matrix'
      ? data.result
      : data.result.map((one) => ({ metric: one.metric, values: [one.value] }));
  for (const { metric, values } of series) {
    const { instance, figure } = metric;
    if (instance === undefined || figure === undefined || !figures.has(figure)) continue;
    const byFigure = points.get(instance) ?? new Map<SampleFigure, Map<number, number>>();
    points.set(instance, byFigure);
    const byTime = byFigure.get(figure as SampleFigure) ?? new Map<number, number>();
    byFigure.set(figure as SampleFigure, byTime);
    for (const [seconds, text] of values) {
      const value = parseGoFloat(text);
      if (value !== undefined) byTime.set(Math.round(seconds * 1000), value);
    }
  }
  return { ok: true, points, warnings: response.warnings ?? [] };
}
