import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

// A file written beside its place and renamed in, so a reader never sees half of it. On any failure (a missing
// folder, a directory in the way, a full disk) the temporary file is removed and the old file, if any, is untouched.

export async function writeFileAtomic(file: string, content: string | Buffer): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    await writeFile(temp, content);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}
