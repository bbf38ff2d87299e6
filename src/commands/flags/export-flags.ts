import { commonFlags, rootFlag } from './common-flags.js';
import { defineCommand, type CommandValues } from './flag-table.js';
import { optionalText, switchValue } from './value-schemas.js';

// `rocm-perf export --perfetto RUN` and `rocm-perf export --otlp URL RUN`.

/** An http:// or https:// URL (the OTLP/HTTP collector). */
function isHttpUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

export const exportCommand = defineCommand({
  name: 'export',
  description:
    'export a run for other tools: --perfetto writes a Chrome JSON trace that ui.perfetto.dev opens; --otlp sends it as one trace to an OTLP/HTTP collector (Jaeger, an OpenTelemetry Collector; docs/otlp.md)',
  examples: [
    'rocm-perf export --perfetto 20260314T092000Z-k3m9q2',
    'rocm-perf export --perfetto 20260314T092000Z-k3m9q2 --out trace.json',
    'rocm-perf export --otlp http://127.0.0.1:4318 20260314T092000Z-k3m9q2',
  ],
  env: [],
  arguments: {
    run: { syntax: '<run>', description: 'a run dir or a stamp under --root', value: (z) => z.string() },
  },
  flags: {
    ...commonFlags,
    root: rootFlag,
    perfetto: {
      flags: '--perfetto',
      description: 'Chrome Trace Event Format JSON for ui.perfetto.dev',
      default: false,
      value: switchValue,
    },
    out: {
      flags: '--out <file>',
      description: 'where --perfetto writes (default: RUN/perfetto-trace.json; `-` for stdout)',
      value: optionalText,
    },
    otlp: {
      flags: '--otlp <url>',
      description:
        'send the run as one trace (OTLP/HTTP, JSON) to this collector; a base URL gets /v1/traces appended, a path is used as given',
      value: (z) => z.string().trim().refine(isHttpUrl).optional(),
      expected: 'an http:// or https:// URL of an OTLP/HTTP receiver',
      example: 'http://127.0.0.1:4318',
    },
    allowPartial: {
      flags: '--allow-partial',
      description:
        'with --otlp: send a run whose files failed its checks (exit 1 after sending); without it such a run is refused',
      default: false,
      value: switchValue,
    },
  },
});

export type ExportValues = CommandValues<typeof exportCommand>;
