import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataFileSchema, RunFileSchema } from '../../../src/artifacts/index.js';
import { buildHarnessSummary } from '../../../src/commands/harness-summary.js';
import { readCliEnv } from '../../../src/commands/flags/read-cli-env.js';

// The edge of the end-of-run summary: where `rocm-perf serve` would show the run is resolved from the environment
// as serve resolves it (PERF_BIND, PERF_PORT, else serve's documented defaults: every interface, port 8090), and
// the command to start it names the run's root.

const sample = path.resolve(import.meta.dirname, '../../../fixtures/runs/gfx1201-warm');
const run = RunFileSchema.parse(JSON.parse(readFileSync(path.join(sample, 'run.json'), 'utf8')));
const model = DataFileSchema.parse(JSON.parse(readFileSync(path.join(sample, 'data.json'), 'utf8')));
const runDir = '/var/tmp/rocm-perf/20261206T060524Z-2ud7k8';
const result = { runDir, exitCode: 0, run, model };

describe('buildHarnessSummary', () => {
  it.each([
    [{}, 'http://0.0.0.0:8090/runs/20261206T060524Z-2ud7k8/'],
    [{ PERF_BIND: '127.0.0.1', PERF_PORT: '8137' }, 'http://127.0.0.1:8137/runs/20261206T060524Z-2ud7k8/'],
    [{ PERF_BIND: '::1', PERF_PORT: '9000' }, 'http://[::1]:9000/runs/20261206T060524Z-2ud7k8/'],
    // An empty variable is not set (README): serve's default.
    [{ PERF_PORT: '' }, 'http://0.0.0.0:8090/runs/20261206T060524Z-2ud7k8/'],
  ])('%j: serve at %s', (env, url) => {
    expect(buildHarnessSummary(result, readCliEnv(env), '/var/tmp/rocm-perf').serveUrl).toBe(url);
  });

  it('a PERF_PORT serve would refuse: the URL is unknown, said why, never a guess', () => {
    const summary = buildHarnessSummary(result, readCliEnv({ PERF_PORT: 'http' }), '/r');
    expect(summary.serveUrl).toBe('unknown: PERF_PORT=http is not a port number from 0 to 65535');
  });

  it('names the root serve must be given, quoted for the shell when it needs to be', () => {
    expect(buildHarnessSummary(result, {}, '/var/tmp/rocm-perf').serveCommand).toBe(
      'rocm-perf serve --root /var/tmp/rocm-perf',
    );
    expect(buildHarnessSummary(result, {}, "/tmp/it's runs").serveCommand).toBe(
      "rocm-perf serve --root '/tmp/it'\\''s runs'",
    );
  });

  it('the report beside the run, the stamp and exit code from run.json', () => {
    const summary = buildHarnessSummary({ ...result, exitCode: 1 }, {}, '/var/tmp/rocm-perf');
    expect(summary).toMatchObject({
      reportPath: `${runDir}/report.md`,
      pagePath: `${runDir}/index.html`,
      // run.json's own stamp (the sample's), not the run dir's name.
      stamp: (JSON.parse(readFileSync(path.join(sample, 'run.json'), 'utf8')) as { stamp: string }).stamp,
      exitCode: 0,
    });
  });
});
