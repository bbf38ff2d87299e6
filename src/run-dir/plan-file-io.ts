import { mkdir, readFile } from 'node:fs/promises';
import { readRunFileText, RunFileRefusedError } from '../artifacts/open-run-file.js';
import path from 'node:path';
import { ArtifactError } from '../shared/errors.js';
import { writeFileAtomic } from '../shared/write-file-atomic.js';
import { parsePlanFile, type Plan } from '../artifacts/plan-file.js';
import { readJsonIfPresent } from './read-json-file.js';
import { errorMessage } from '../shared/error-message.js';

// The one reader and writer of plan.json, through PlanFileSchema. Not in index.ts (node:fs).

const PLAN_FILE_NAME = 'plan.json';

/** Writes DIR/plan.json (creating DIR) and returns its path; `onBytes` sees the exact text written (a run's digest). */
export async function writePlanFile(
  dir: string,
  plan: Plan,
  { onBytes }: { onBytes?: (bytes: string) => void } = {},
): Promise<string> {
  const file = path.join(dir, PLAN_FILE_NAME);
  await mkdir(dir, { recursive: true });
  const text = `${JSON.stringify(plan, null, 2)}\n`;
  await writeFileAtomic(file, text);
  onBytes?.(text);
  return file;
}

/**
 * Reads a plan.json (or DIR/plan.json) back through the schema. A run dir's plan.json is read confined
 * (open-run-file.ts); a plan file the user names (`--plan FILE`) is theirs to link.
 */
export async function readPlanFile(fileOrDir: string): Promise<Plan> {
  const inRunDir = !fileOrDir.endsWith('.json');
  const file = inRunDir ? path.join(fileOrDir, PLAN_FILE_NAME) : fileOrDir;
  let text: string;
  try {
    text = inRunDir ? await readRunFileText(file) : await readFile(file, 'utf8');
  } catch (cause) {
    if (cause instanceof RunFileRefusedError) throw cause;
    throw new ArtifactError(file, `cannot read the plan: ${errorMessage(cause)}`, {
      cause,
      hint: 'run `rocm-perf plan --out DIR` first',
    });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (cause) {
    throw new ArtifactError(file, `not JSON: ${errorMessage(cause)}`, {
      cause,
      hint: 're-run `rocm-perf plan`',
    });
  }
  return parsePlanFile(raw, file);
}

/** A run dir's plan.json, when it has one (the report's: a run without a plan is still reported). */
export async function readPlanFileIfPresent(dir: string): Promise<Plan | undefined> {
  const file = path.join(dir, PLAN_FILE_NAME);
  const raw = await readJsonIfPresent(file);
  return raw === undefined ? undefined : parsePlanFile(raw, file);
}
