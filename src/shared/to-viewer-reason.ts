import path from 'node:path';
import { ArtifactError, ParseError, RocmPerfError } from './errors.js';

// Why a run cannot be shown, in a few words a viewer on the LAN may read: the file's name and what is wrong with it,
// never a server path, a stack or a parser's own message (those go to the server's log). Pure.

export function toViewerReason(error: unknown): string {
  if (error instanceof RocmPerfError && error.code === 'ROCMPERF_RUN_FILE_REFUSED') {
    const file = path.basename((error as RocmPerfError & { path: string }).path);
    return `${file} is a link or special file, not read`;
  }
  if (error instanceof ArtifactError) {
    const file = path.basename(error.path);
    if (/: not JSON\b/.test(error.message)) return `${file} is not valid JSON`;
    if (/: cannot read\b/.test(error.message)) return `${file} cannot be read`;
    return `${file} is not in a format this rocm-perf reads`;
  }
  if (error instanceof ParseError) return `${path.basename(error.source)} cannot be parsed`;
  const code = error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
  if (!(error instanceof RocmPerfError) && code !== undefined && /^E[A-Z]+$/.test(code))
    return 'a file of the run cannot be read';
  return 'its report could not be built';
}
