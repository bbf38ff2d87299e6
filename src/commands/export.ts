import { openRunDir } from '../run-dir/index.js';
import path from 'node:path';
import { buildPerfettoTrace, findTraceProblems, PerfettoTraceSchema } from '../export/index.js';
import { buildPartialRunError, findRunDir, listLoudWarningLines, loadRunModel } from '../report/index.js';
import { InternalError, UsageError } from '../shared/errors.js';
import { throwFileAccessError } from '../shared/to-file-access-error.js';
import { writeFileAtomic } from '../shared/write-file-atomic.js';
import { runOtlpExport } from './export-otlp.js';
import type { ExportValues } from './flags/index.js';

export const PERFETTO_FILE = 'perfetto-trace.json';

// `rocm-perf export --perfetto RUN [--out FILE]`: the run as a Chrome JSON trace that ui.perfetto.dev opens;
// `--otlp URL`: the run as one OTLP trace sent to a collector (export-otlp.ts).
export async function runExportCommand(
  options: ExportValues,
  context: { serviceVersion: string },
): Promise<void> {
  if (options.perfetto && options.otlp !== undefined)
    throw new UsageError('export: --perfetto and --otlp both given', {
      hint: 'pass one format per run of `rocm-perf export`',
    });
  if (options.otlp !== undefined) return runOtlpExport({ ...options, otlp: options.otlp }, context);
  if (!options.perfetto)
    throw new UsageError('export: no format chosen', {
      hint: 'pass --perfetto (`rocm-perf export --perfetto RUN`) or --otlp URL (`rocm-perf export --otlp http://127.0.0.1:4318 RUN`)',
    });
  const loaded = await loadRunModel({
    runDir: openRunDir(await findRunDir({ run: options.run, root: options.root })),
    nowMs: Date.now(),
  });
  const deps = loaded.plan
    ? Object.fromEntries(Object.entries(loaded.plan.targets).map(([name, t]) => [name, t.deps]))
    : undefined;
  const { trace, notes } = buildPerfettoTrace({ model: loaded.model, deps });
  const problems = findTraceProblems(PerfettoTraceSchema.parse(trace));
  if (problems.length > 0)
    throw new InternalError(
      `the Perfetto export of ${loaded.dir} breaks the Trace Event Format:\n  ${problems.slice(0, 10).join('\n  ')}`,
    );
  if (!loaded.plan) notes.push('no plan.json: dependencies unknown, so no flow arrows');
  for (const note of [...loaded.notes, ...notes]) console.error(`note: ${note}`);
  const sides = [{ label: loaded.dir, model: loaded.model }];
  for (const line of listLoudWarningLines(sides)) console.error(line);
  const failure = buildPartialRunError({ command: 'export', sides });
  const text = `${JSON.stringify(trace)}\n`;
  if (options.out === '-') {
    process.stdout.write(text);
    if (failure) throw failure;
    return;
  }
  const out = path.resolve(options.out ?? path.join(loaded.dir, PERFETTO_FILE));
  await writeFileAtomic(out, text).catch(
    throwFileAccessError({
      path: options.out ?? out,
      flag: options.out === undefined ? undefined : '--out',
      doing: 'write the trace',
      example: path.join(options.out ?? '.', PERFETTO_FILE),
    }),
  );
  console.log(
    `${out}: ${trace.traceEvents.length} trace events (${loaded.model.run.harness} run ${loaded.stamp}); open it at https://ui.perfetto.dev`,
  );
  if (failure) throw failure;
}
