import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InternalError } from '../shared/errors.js';
import { type RunFile, RunFileSchema } from '../artifacts/index.js';

// run.json is rewritten as the run goes (serve shows a run in flight), atomically and in order,
// and validated through the same schema its readers use before every write.

export interface RunFileWriter {
  get(): RunFile;
  update(change: (run: RunFile) => void): Promise<void>;
}

export const RUN_FILE_NAME = 'run.json';

export function createRunFileWriter(runDir: string, initial: RunFile): RunFileWriter {
  const file = path.join(runDir, RUN_FILE_NAME);
  let current = structuredClone(initial);
  let chain: Promise<void> = Promise.resolve();
  const write = async (snapshot: RunFile) => {
    const parsed = RunFileSchema.safeParse(snapshot);
    if (!parsed.success)
      throw new InternalError(
        `run.json would not validate: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
      );
    await writeFile(`${file}.tmp`, `${JSON.stringify(parsed.data, null, 2)}\n`);
    await rename(`${file}.tmp`, file);
  };
  return {
    get: () => current,
    update(change) {
      const next = structuredClone(current);
      change(next);
      current = next;
      const snapshot = structuredClone(next);
      chain = chain.catch(() => undefined).then(() => write(snapshot));
      return chain;
    },
  };
}
