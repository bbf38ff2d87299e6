import { mkdir, readFile } from 'node:fs/promises';
import { RunFileRefusedError } from '../shared/open-run-file.js';
import { openRunDir, type RunDir } from './open-run-dir.js';
import path from 'node:path';
import { ArtifactError } from '../shared/errors.js';
import { writeFileAtomic } from '../shared/write-file-atomic.js';
import { parsePlanFile, type Plan, RUN_DIR_FILES } from '../artifacts/index.js';
import { readJsonIfPresent } from './read-json-file.js';
import { errorMessage } from '../shared/error-message.js';

// The one reader and writer of plan.json, through PlanFileSchema. Not in index.ts (node:fs).

/** Writes DIR/plan.json (creating DIR) and returns its path; `onBytes` sees the exact text written (a run's digest). */
export async function writePlanFile(
  dir: string,
  plan: Plan,
  { onBytes }: { onBytes?: (bytes: string) => void } = {},
): Promise<string> {
  const file = path.join(dir, RUN_DIR_FILES.plan);
  await mkdir(dir, { recursive: true });
  const text = `${JSON.stringify(plan, null, 2)}\n`;
  await writeFileAtomic(file, text);
  onBytes?.(text);
  return file;
}

/**
 * Reads a plan.json (or DIR/plan.json) back through the schema. A run dir's plan.json is read confined
 * (open-run-dir.ts); a plan file the user names (`--plan FILE`) is theirs to link.
 */
export async function readPlanFile(fileOrDir: string): Promise<Plan> {
  if (!fileOrDir.endsWith('.json')) return readRequiredPlanFile(openRunDir(fileOrDir));
  const file = fileOrDir;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new ArtifactError(file, `cannot read the plan: ${errorMessage(cause)}`, {
      cause,
      hint: 'run `rocm-perf plan --out DIR` first',
    });
  }
  return parsePlanText(text, file);
}

function parsePlanText(text: string, file: string): Plan {
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

/** A run dir's plan.json, which must be there (`plan --from-run`), read confined (open-run-dir.ts). */
export async function readRequiredPlanFile(runDir: RunDir): Promise<Plan> {
  const file = runDir.file(RUN_DIR_FILES.plan);
  let text: string | undefined;
  try {
    text = await runDir.readText(RUN_DIR_FILES.plan);
  } catch (cause) {
    if (cause instanceof RunFileRefusedError) throw cause;
    throw new ArtifactError(file, `cannot read the plan: ${errorMessage(cause)}`, {
      cause,
      hint: 'run `rocm-perf plan --out DIR` first',
    });
  }
  if (text === undefined)
    throw new ArtifactError(file, 'cannot read the plan: the run dir has no plan.json', {
      hint: 'run `rocm-perf plan --out DIR` first',
    });
  return parsePlanText(text, file);
}

/** A run dir's plan.json, when it has one (the report's: a run without a plan is still reported); parsed once. */
export function readPlanFileIfPresent(runDir: RunDir): Promise<Plan | undefined> {
  return runDir.remember(RUN_DIR_FILES.plan, async () => {
    const raw = await readJsonIfPresent(runDir, RUN_DIR_FILES.plan);
    return raw === undefined ? undefined : parsePlanFile(raw, runDir.file(RUN_DIR_FILES.plan));
  });
}
