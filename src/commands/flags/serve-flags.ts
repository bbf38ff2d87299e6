import { commonFlags, rootFlag } from './common-flags.js';
import { defineCommand, type CommandValues } from './flag-table.js';

// `rocm-perf serve`.

export const serveCommand = defineCommand({
  name: 'serve',
  description:
    'live chart of every run on :8090 with a paged, filtered index and trends, and /metrics for Prometheus (binds every interface unless --bind/PERF_BIND); keeps a run index in <root>/.runs-index.jsonl, loaded as it starts (its progress on the console, and on / until it is loaded; docs/history.md)',
  examples: ['rocm-perf serve --bind 127.0.0.1', 'rocm-perf serve --root fixtures/runs --port 8091'],
  env: [],
  arguments: {},
  flags: {
    ...commonFlags,
    root: rootFlag,
    bind: {
      flags: '--bind <address>',
      description: 'address to listen on',
      env: 'PERF_BIND',
      default: '0.0.0.0',
      value: (z) => z.string().trim().min(1),
      expected: 'an address',
      example: '127.0.0.1',
    },
    port: {
      flags: '--port <port>',
      description: 'port to listen on',
      env: 'PERF_PORT',
      default: '8090',
      value: (z) => z.string().trim().regex(/^\d+$/).transform(Number).pipe(z.number().max(65535)),
      expected: 'a port number from 0 to 65535',
      example: '8090',
    },
    refreshSeconds: {
      flags: '--refresh-seconds <s>',
      description: 'regenerate a polled run’s data.json at most this often',
      default: '3',
      value: (z) => z.string().trim().min(1).transform(Number).pipe(z.number().min(0.5)),
      expected: 'a number of seconds, at least 0.5',
      example: '3',
    },
  },
});

export type ServeValues = CommandValues<typeof serveCommand>;
