import { listRuns } from '../report/list-runs.js';
import { readRunFile } from '../artifacts/read-run-file.js';
import { readLane } from '../report/read-run-dir.js';
import type { RunListItem } from '../report/render-runs-index.js';
import { toViewerReason } from '../shared/to-viewer-reason.js';
import type { FailureLog } from './failure-reply.js';
import { isServableStamp } from './route-request.js';
import { errorMessage } from '../shared/error-message.js';

/** The runs for `/` (those serve answers); a run whose run.json cannot be read is listed as broken, with a reason a viewer may read. */
export async function listRunItems(context: { root: string; failures: FailureLog }): Promise<RunListItem[]> {
  const runs = (await listRuns(context.root)).filter((r) => isServableStamp(r.stamp));
  return Promise.all(
    runs.map(async (r) => {
      const read = await readRunFile(r.dir).then(
        (run) => ({ run, broken: undefined }),
        (error: unknown) => {
          context.failures.record(`run ${r.stamp}`, errorMessage(error));
          return { run: undefined, broken: toViewerReason(error) };
        },
      );
      return {
        stamp: r.stamp,
        href: `/runs/${encodeURIComponent(r.stamp)}/`,
        harness: read.run?.harness ?? 'unknown',
        lane: await readLane(r.dir).catch(() => 'unknown'),
        status: read.broken === undefined ? (read.run?.status ?? 'unknown') : `broken: ${read.broken}`,
        namespace: read.run?.namespace ?? null,
      };
    }),
  );
}
