import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderArtifacts } from '../src/artifacts/index.js';
import { renderPlanFile, renderRunFile } from './fixture-run/render-run-files.js';
import { renderSamples, renderSccacheLog, renderZotLog } from './fixture-run/render-logs.js';
import { renderTrace } from './fixture-run/render-trace.js';
import { simulateRun, type SimulateRunOptions } from './fixture-run/simulate-run.js';

// Writes synthetic run dirs in the spec's formats (plus run.json/plan.json) from a seeded simulation.
// `node --import tsx scripts/make-fixture-run.ts` regenerates test/fixtures/runs/*; tests and the bench call
// writeFixtureRun() directly.

export interface FixtureRunOptions extends SimulateRunOptions {
  dir: string;
  withRunFile?: boolean;
  withPlanFile?: boolean;
  status?: 'running' | 'completed';
  /** ok: Zot's session log; empty: present, 0 bytes; drifted: bytes in a format the parser does not know. */
  registryLog?: 'ok' | 'empty' | 'drifted';
  sampleIntervalMs?: number;
}

function driftedZotLog(text: string): string {
  // A producer change the parser cannot follow: nginx-style text lines instead of Zot's JSON.
  return (
    text
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const entry = JSON.parse(line) as {
          time: string;
          clientIP: string;
          method: string;
          path: string;
          statusCode: number;
        };
        return `${entry.clientIP.split(':')[0]} - - [${entry.time}] "${entry.method} ${entry.path} HTTP/1.1" ${entry.statusCode} 0`;
      })
      .join('\n') + '\n'
  );
}

export async function writeFixtureRun(options: FixtureRunOptions): Promise<string> {
  const run = simulateRun(options);
  await rm(options.dir, { recursive: true, force: true });
  await mkdir(options.dir, { recursive: true });
  const prefix = run.harness === 'cold' ? `rocm/gfx1201-cold-${run.stamp}` : 'rocm/gfx1201';
  const zot = renderZotLog(run);
  const files: Record<string, string> = {
    'samples.jsonl': renderSamples(run, { intervalMs: options.sampleIntervalMs ?? 1000 }),
    'sccache.log': renderSccacheLog(run, { prefix }),
    'zot.jsonl':
      options.registryLog === 'empty' ? '' : options.registryLog === 'drifted' ? driftedZotLog(zot) : zot,
    'artifacts.txt': renderArtifacts(
      run.targets
        .filter((t) => t.name.endsWith('-wheel'))
        .map((t, i) => ({
          kind: 'wheel' as const,
          name: `${t.name.replace(/-wheel$/, '').replace(/-/g, '_')}-1.0.0-cp312-cp312-linux_x86_64.whl`,
          sizeBytes: 40_000_000 + i * 1_000_003,
        })),
    ),
  };
  for (const target of run.targets) files[`trace-${target.name}.json`] = renderTrace(run, target);
  if (options.withRunFile !== false) files['run.json'] = renderRunFile(run, options.status ?? 'completed');
  if (options.withPlanFile !== false) files['plan.json'] = renderPlanFile(run);
  for (const [name, content] of Object.entries(files)) await writeFile(path.join(options.dir, name), content);
  return options.dir;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const FIXTURE_RUNS_DIR = path.join(repoRoot, 'test/fixtures/runs');

/** The committed fixture runs: name → options. */
export const FIXTURE_RUNS: Record<string, Omit<FixtureRunOptions, 'dir'>> = {
  '20260314T092000Z-warm': {
    stamp: '20260314T092000Z',
    harness: 'warm',
    nodeCount: 3,
    durationSeconds: 1800,
    targetsPerNode: 2,
    seed: 7,
    sampleIntervalMs: 5000,
  },
  '20260313T220000Z-cold': {
    stamp: '20260313T220000Z',
    harness: 'cold',
    nodeCount: 2,
    durationSeconds: 3600,
    targetsPerNode: 2,
    seed: 3,
    sampleIntervalMs: 10_000,
  },
  '20250901T120000Z-spec-only': {
    stamp: '20250901T120000Z',
    harness: 'warm',
    nodeCount: 2,
    durationSeconds: 900,
    targetsPerNode: 1,
    seed: 5,
    withRunFile: false,
    withPlanFile: false,
    sampleIntervalMs: 5000,
  },
};

/** Issue 18 item 3's scale: 24 nodes, 100 targets, 6 hours sampled at 1 Hz (not committed: ~100 MB of samples). */
export const LANES_24_RUN: Omit<FixtureRunOptions, 'dir'> = {
  stamp: '20260314T060000Z',
  harness: 'warm',
  nodeCount: 24,
  targetCount: 100,
  durationSeconds: 6 * 3600,
  seed: 42,
  sampleIntervalMs: 1000,
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [name, options] of Object.entries(FIXTURE_RUNS)) {
    const dir = await writeFixtureRun({ ...options, dir: path.join(FIXTURE_RUNS_DIR, name) });
    console.log(`wrote ${path.relative(repoRoot, dir)}`);
  }
}
