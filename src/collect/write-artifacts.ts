// artifacts.txt out: the images a run's successful targets published (from their buildx metadata files). The format
// is src/artifacts/artifacts-file.ts; the report reads the file back (report/read-run-dir.ts).
import { writeFile } from 'node:fs/promises';
import { type Artifact, renderArtifacts } from '../artifacts/index.js';

/** Writes artifacts.txt; returns the text written (a run's digest of it). */
export async function writeArtifacts(options: {
  path: string;
  artifacts: readonly Artifact[];
}): Promise<string> {
  const text = renderArtifacts(options.artifacts);
  await writeFile(options.path, text);
  return text;
}
