import { openRunDir } from '../run-dir/index.js';
import { adviseRunDir } from '../advise/index.js';
import {
  buildPartialRunError,
  findRunDir,
  listLoudWarningLines,
  loadRunModel,
  renderAdviceMd,
} from '../report/index.js';
import type { AdviseValues } from './flags/index.js';

// `rocm-perf advise RUN`: the advisor's ranked actions for one run (markdown, or --json), each with the makespan a
// what-if replay of the run saves and its evidence; "nothing to advise" is an answer. Exit 1 after printing when
// the run has loud warnings (figures partial), as `report` and `diff` do.
export async function runAdviseCommand(options: AdviseValues): Promise<void> {
  const dir = await findRunDir({ run: options.run, root: options.root });
  const loaded = await loadRunModel({ runDir: openRunDir(dir), nowMs: Date.now() });
  const advice = await adviseRunDir({
    runDir: loaded.runDir,
    model: loaded.model,
    runFile: loaded.runFile,
    plan: loaded.plan,
    runs: options.runs,
  });
  const sides = [{ label: dir, model: loaded.model }];
  for (const line of [...loaded.notes]) console.error(`note: ${line}`);
  for (const line of listLoudWarningLines(sides)) console.error(line);
  if (options.json) console.log(JSON.stringify({ run: loaded.stamp, dir, advice }, null, 2));
  else console.log([`# Advice for ${loaded.stamp}`, '', ...renderAdviceMd(advice)].join('\n'));
  const failure = buildPartialRunError({ command: 'advise', sides });
  if (failure) throw failure;
}
