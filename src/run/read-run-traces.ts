import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseBuildkitTrace, type TargetTrace } from '../collect/index.js';
import { ArtifactError } from '../shared/errors.js';
import { type RunFile, RunFileSchema } from '../artifacts/index.js';
import { formatZodIssues } from '../shared/format-zod-issues.js';
import { errorMessage } from '../shared/error-message.js';

// Reads a finished run dir back: run.json through its schema, and every trace-<target>.json.

export async function readRunDirFile(runDir: string): Promise<RunFile> {
  const file = path.join(runDir, 'run.json');
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (cause) {
    throw new ArtifactError(file, `cannot read run.json: ${errorMessage(cause)}`, {
      cause,
      hint: 'pass a run dir written by `rocm-perf cold|warm|bench`',
    });
  }
  const parsed = RunFileSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ArtifactError(file, `not a valid run file: ${formatZodIssues(parsed.error.issues)}`, {
      hint: 'a run.json from another rocm-perf version needs that version',
    });
  }
  return parsed.data;
}

export async function readRunTraces(
  runDir: string,
): Promise<{ traces: Map<string, TargetTrace>; warnings: string[] }> {
  const traces = new Map<string, TargetTrace>();
  const warnings: string[] = [];
  for (const name of (await readdir(runDir)).sort()) {
    const match = /^trace-(.+)\.json$/.exec(name);
    if (!match?.[1]) continue;
    const parsed = parseBuildkitTrace(await readFile(path.join(runDir, name), 'utf8'), {
      source: name,
      target: match[1],
    });
    warnings.push(...parsed.warnings);
    traces.set(match[1], parsed.trace);
  }
  return { traces, warnings };
}
