import { type RunDir } from '../run-dir/index.js';
import { TARGET_FILES, type Plan, type RunFile } from '../artifacts/index.js';

import { errorMessage } from '../shared/error-message.js';
import { formatZodIssues } from '../shared/format-zod-issues.js';
import { ZodError } from 'zod';
import type { WhyEvidence, TargetEvidence } from './build-run-why.js';
import { parseCacheDebug } from '../collect/index.js';
import { buildContentTrees, type ContentTree } from './build-content-trees.js';
import { parseProvenance } from './parse-provenance.js';
import { parseStatusVertices } from './parse-status-vertices.js';

// A run dir's evidence for `why` (docs/explain.md): per target status-<target>.jsonl and its provenance
// (meta-<target>.json `buildx.build.provenance`, or provenance-<target>.json), per node cache-debug-<node>.json.
// Every one is untrusted input, read confined (openRunFile). An absent file is evidence not recorded (the explainer
// names the setting); a damaged one is left out with a note naming the file and what is wrong with it.

export interface ReadEvidence {
  evidence: WhyEvidence;
  /** Files left out, each with why (the message names the file). */
  problems: { file: string; message: string }[];
}

function describe(error: unknown): string {
  if (error instanceof ZodError)
    return `not the shape BuildKit writes (${formatZodIssues(error.issues, { limit: 1 })})`;
  if (error instanceof SyntaxError) return `not JSON (${error.message})`;
  return errorMessage(error);
}

/** Reads one file through `parse`; absent → undefined; damaged → undefined and a problem naming it. */
async function readOne<T>(
  runDir: RunDir,
  name: string,
  problems: ReadEvidence['problems'],
  parse: (text: string) => T | undefined,
  { once = false }: { once?: boolean } = {},
) {
  try {
    const text = once ? await runDir.takeText(name) : await runDir.readText(name);
    return text === undefined ? undefined : parse(text);
  } catch (error) {
    problems.push({
      file: name,
      message: `${name}: ${describe(error)}; left out of why the run's targets missed the cache`,
    });
    return undefined;
  }
}

function pickProvenance(raw: unknown, target: string): unknown {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const record = raw as Record<string, unknown>;
  // bake's metadata file: { <target>: { "buildx.build.provenance": … } }; a single build's: { "buildx.build.provenance": … }
  const own = (record[target] as Record<string, unknown> | undefined)?.['buildx.build.provenance'];
  return own ?? record['buildx.build.provenance'];
}

/**
 * One target's provenance through `parse` (handed the value of `buildx.build.provenance`, or a build record's SLSA
 * v1 predicate): provenance-<target>.json first (BuildKit ≥ v0.28.0 keeps it in the build record, and a .dockerbuild
 * import writes it), else meta-<target>.json. Absent → undefined; damaged → undefined and a problem naming the file.
 * The one place that knows where a target's provenance lies: explain and advise both read it here.
 */
export async function readProvenanceFile<T>(
  runDir: RunDir,
  target: string,
  problems: ReadEvidence['problems'],
  parse: (raw: unknown) => T | undefined,
): Promise<T | undefined> {
  const separate = await readOne(runDir, TARGET_FILES.provenance(target), problems, (text) => {
    const raw = JSON.parse(text) as unknown;
    return parse(pickProvenance(raw, target) ?? raw);
  });
  if (separate !== undefined) return separate;
  return readOne(runDir, TARGET_FILES.meta(target), problems, (text) => {
    const raw = pickProvenance(JSON.parse(text), target);
    return raw === undefined ? undefined : parse(raw);
  });
}

/** The in-run dependencies: run.json's, else plan.json's. */
function listDeps(runFile: RunFile | undefined, plan: Plan | undefined): Record<string, string[]> {
  if (runFile?.deps) return runFile.deps;
  return Object.fromEntries(Object.entries(plan?.targets ?? {}).map(([name, t]) => [name, [...t.deps]]));
}

export async function readRunEvidence({
  runDir,
  stamp,
  runFile,
  plan,
}: {
  runDir: RunDir;
  stamp: string;
  runFile: RunFile;
  plan: Plan | undefined;
}): Promise<ReadEvidence> {
  const problems: ReadEvidence['problems'] = [];
  const targets: Record<string, TargetEvidence> = {};
  for (const [target, outcome] of Object.entries(runFile.targets)) {
    if (!/^[\w.-]+$/.test(target)) continue; // a name that cannot be a file of the run dir's own
    const status = await readOne(runDir, TARGET_FILES.status(target), problems, parseStatusVertices);
    const provenance = await readProvenanceFile(runDir, target, problems, parseProvenance);
    targets[target] = { status, provenance, node: 'node' in outcome ? outcome.node : undefined };
  }
  const content: Record<string, ContentTree[]> = {};
  for (const node of runFile.nodes) {
    if (!/^[\w.-]+$/.test(node.name)) continue;
    const name = TARGET_FILES.cacheDebug(node.name);
    // Read by why alone, once per run: not kept.
    const trees = await readOne(
      runDir,
      name,
      problems,
      (text) => buildContentTrees(parseCacheDebug(text, name)),
      { once: true },
    );
    if (trees) content[node.name] = trees;
  }
  const builders = Object.fromEntries(
    (runFile.evidence?.builders ?? []).flatMap((b) =>
      b.identity
        ? [
            [
              b.node,
              {
                oldestRecordCreatedAt: b.identity.oldestRecordCreatedAt,
                cacheRecords: b.identity.cacheRecords,
              },
            ],
          ]
        : [],
    ),
  );
  const producedBy = Object.fromEntries(
    Object.entries(runFile.uploadRefs ?? {}).flatMap(([target, refs]) =>
      refs.image.map((ref) => [ref, target]),
    ),
  );
  return {
    evidence: { stamp, targets, content, deps: listDeps(runFile, plan), builders, producedBy },
    problems,
  };
}
