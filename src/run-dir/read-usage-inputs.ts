import type { RunDir } from './open-run-dir.js';
import {
  RUN_DIR_FILES,
  TARGET_FILES,
  type ReportWarning,
  type RunFile,
  type SampleTable,
} from '../artifacts/index.js';
import { readTextIfPresent } from './read-json-file.js';
import {
  parseProvenanceUsage,
  type ProvenanceUsage,
  parseStatusVertices,
  type StatusVertex,
  type readStepUsage,
} from '../collect/index.js';
import type { UsageRead } from './run-inputs.js';

// What the step-usage figures need from a run dir (docs/step-usage.md): step-usage.jsonl, each target's status
// stream (its RUN vertices and their times) and metadata file (BuildKit's provenance samples). Every file is
// untrusted: a bad line is counted by the reader; a malformed provenance is a loud warning naming the key.

export async function readUsageInputs(options: {
  runDir: RunDir;
  run: RunFile | undefined;
  stepUsage: Awaited<ReturnType<typeof readStepUsage>> | undefined;
  samples: SampleTable;
}): Promise<UsageRead> {
  const { runDir, run } = options;
  const warnings: ReportWarning[] = [];
  const vertices = new Map<string, readonly StatusVertex[]>();
  const provenance = new Map<string, ProvenanceUsage>();
  for (const target of Object.keys(run?.targets ?? {}).sort()) {
    const status = await readTextIfPresent(runDir, TARGET_FILES.status(target));
    if (status !== undefined) vertices.set(target, parseStatusVertices(status));
    const metaName = TARGET_FILES.meta(target);
    const meta = await readTextIfPresent(runDir, metaName);
    if (meta === undefined) continue;
    let json: unknown;
    try {
      json = JSON.parse(meta);
    } catch {
      continue; // the metadata file's own reader (read-build-metadata) says what is wrong with it
    }
    const parsed = parseProvenanceUsage(json);
    if (!parsed.ok)
      warnings.push({
        level: 'loud',
        stream: metaName,
        message: `${metaName}: key ${parsed.key}: ${parsed.message}; BuildKit's step usage of ${target} is not read (a provenance that does not match BuildKit's types)`,
      });
    else if (parsed.usage) provenance.set(target, parsed.usage);
  }
  for (const [node, gaps] of options.stepUsage?.gaps ?? [])
    warnings.push({
      level: 'note',
      stream: RUN_DIR_FILES.stepUsage,
      message: `${gaps.count} step-usage poll(s) of ${node} failed (the first: ${gaps.firstError}); a step that ended in such a gap lost the CPU after its last good poll`,
    });
  return {
    usage: {
      polls: options.stepUsage?.polls ?? [],
      vertices,
      provenance,
      configuredMemoryBytes: new Map(
        (run?.nodes ?? []).flatMap((node) =>
          node.memoryBytes === undefined ? [] : [[node.name, node.memoryBytes]],
        ),
      ),
      sampledMemoryBytes: new Map(
        [...options.samples.nodes.values()].flatMap((node) =>
          Number.isNaN(node.memTotalBytes) ? [] : [[node.node, node.memTotalBytes]],
        ),
      ),
    },
    warnings,
  };
}
