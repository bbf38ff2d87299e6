import {
  buildOtlpTrace,
  OtlpTraceRequestSchema,
  readOtlpInputs,
  sendOtlpTrace,
  toOtlpTracesUrl,
} from '../export/index.js';
import {
  buildFlaggedRunError,
  buildPartialRunError,
  findRunDir,
  listLoudWarningLines,
} from '../report/index.js';
import { InternalError, UsageError } from '../shared/errors.js';
import { formatZodIssues } from '../shared/format-zod-issues.js';
import type { ExportValues } from './flags/index.js';

// `rocm-perf export --otlp URL RUN`: the run as one OTLP trace, POSTed to a collector (docs/otlp.md). A run whose
// files failed its checks is refused unless --allow-partial (then sent, and exit 1 as `--perfetto` ends).

export async function runOtlpExport(
  options: ExportValues & { otlp: string },
  { serviceVersion }: { serviceVersion: string },
): Promise<void> {
  const dir = await findRunDir({ run: options.run, root: options.root });
  const { gate, traces } = await readOtlpInputs({ dir, nowMs: Date.now() });
  if (gate.model.run.status === 'running')
    throw new UsageError(`--otlp ${dir}: the run is still in flight (run.json says running)`, {
      hint: 'export it once it has finished: a trace sent now would be missing its last targets',
    });
  const sides = [{ label: dir, model: gate.model }];
  for (const line of listLoudWarningLines(sides)) console.error(line);
  if (gate.loudWarnings.length > 0 && !options.allowPartial)
    throw buildFlaggedRunError({ gate, command: 'export --otlp', flag: '--otlp' });
  const built = buildOtlpTrace({ model: gate.model, traces, serviceVersion });
  const checked = OtlpTraceRequestSchema.safeParse(built.request);
  if (!checked.success)
    throw new InternalError(
      `the OTLP export of ${dir} breaks its schema: ${formatZodIssues(checked.error.issues, { limit: 5 })}`,
    );
  for (const note of built.notes) console.error(`note: ${note}`);
  const url = toOtlpTracesUrl(options.otlp);
  await sendOtlpTrace({ url, trace: checked.data, spanCount: built.spanCount });
  console.log(
    `${url}: sent trace ${built.traceId}: ${built.spanCount} spans, ${built.linkCount} links to BuildKit traces (${gate.model.run.harness} run ${gate.model.run.stamp})`,
  );
  const failure = buildPartialRunError({ command: 'export', sides });
  if (failure) throw failure;
}
