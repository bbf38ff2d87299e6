import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DataFileSchema } from '../../../src/artifacts/index.js';
import type { CommandName, CommandRunners, HarnessValues } from '../../../src/commands/flags/index.js';
import { COMMANDS } from '../../../src/commands/flags/index.js';
import { runHarnessCommand } from '../../../src/commands/harness.js';
import { createProgram } from '../../../src/program.js';
import { expectMarkdownMatchesRows, expectSummaryMatchesData } from '../../helpers/check-run-summary.js';
import {
  createFakeWorld,
  writeFleetFixture,
  writeRealReport,
  writeSavedFleetPlan,
} from '../../helpers/harness-fixture.js';

// `rocm-perf warm` in-process (the real command, flags parsed by the real commander tree; a fake fleet, the real
// report): the summary goes to stdout before the run dir, which stays the last line; GITHUB_STEP_SUMMARY gets the
// same rows as markdown, appended; with --json stdout is one JSON document carrying the summary, the text on stderr.

let fixture: ReturnType<typeof writeFleetFixture>;
let planDir: string;
beforeEach(async () => {
  fixture = writeFleetFixture();
  planDir = await writeSavedFleetPlan(fixture.dir);
});
afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
  fixture.remove();
});

async function parseWarm(extra: string[]): Promise<HarnessValues> {
  let values: HarnessValues | undefined;
  const runners = Object.fromEntries(
    (Object.keys(COMMANDS) as CommandName[]).map((name) => [
      name,
      (given: HarnessValues) => ((values = given), Promise.resolve()),
    ]),
  ) as unknown as CommandRunners;
  const root = path.join(fixture.dir, 'runs');
  const argv = ['warm', '--fleet', fixture.fleetPath, '--root', root, '--plan', planDir, ...extra];
  await createProgram(runners).parseAsync([...argv, '--sample-interval-ms', '10'], { from: 'user' });
  return values!;
}

/** Runs the command, returning what it wrote to stdout and stderr. */
async function runWarm(extra: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void out.push(`${args.join(' ')}\n`));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true));
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void err.push(`${args.join(' ')}\n`));
  const fake = createFakeWorld({ sccacheLog: fixture.sccacheLog, registryLog: fixture.registryLog });
  fake.effects.writeReport = writeRealReport;
  await runHarnessCommand('warm', await parseWarm(extra), {
    env,
    effects: fake.effects,
    signal: new AbortController().signal,
  });
  vi.restoreAllMocks();
  return { stdout: out.join(''), stderr: err.join('') };
}

describe('rocm-perf warm ends with its summary', () => {
  it('stdout: the summary, then the run dir as the last line; the markdown appended to GITHUB_STEP_SUMMARY', async () => {
    const file = path.join(fixture.dir, 'step_summary.md');
    writeFileSync(file, 'earlier step\n');
    const { stdout } = await runWarm([], { GITHUB_STEP_SUMMARY: file, PERF_PORT: '8137' });
    const lines = stdout.trimEnd().split('\n');
    const runDir = lines.at(-1)!;
    const data = DataFileSchema.parse(JSON.parse(readFileSync(path.join(runDir, 'data.json'), 'utf8')));
    const text = lines.slice(0, -1).join('\n');
    const rows = expectSummaryMatchesData(text, data, {
      runDir,
      exitCode: 0,
      serveUrl: `http://0.0.0.0:8137/runs/${path.basename(runDir)}/`,
    });
    const markdown = readFileSync(file, 'utf8');
    expect(markdown.startsWith('earlier step\n')).toBe(true);
    expectMarkdownMatchesRows(markdown, lines[0]!, rows);
  });

  it('--json: one JSON document on stdout with the summary in it; the text on stderr', async () => {
    const { stdout, stderr } = await runWarm(['--json'], {});
    const json = JSON.parse(stdout) as { runDir: string; summary: { stamp: string; serveUrl: string } };
    expect(json.summary.stamp).toBe(path.basename(json.runDir));
    expect(json.summary.serveUrl).toBe(`http://0.0.0.0:8090/runs/${path.basename(json.runDir)}/`);
    expect(stderr).toContain(`── rocm-perf warm ${path.basename(json.runDir)}: completed (exit 0)`);
  });
});
