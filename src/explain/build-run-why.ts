import type { MissCause, RunWhy, TargetWhy } from '../artifacts/index.js';
import { diffTrees, pairNewContent, type ContentTree } from './build-content-trees.js';
import { listAncestors, type LlbStep, type Provenance } from './parse-provenance.js';
import {
  findFirstMiss,
  listOwnSteps,
  type StatusVertex,
  type StatusVertices,
} from './parse-status-vertices.js';

// Why each target of a run missed the cache, against the run compared with (docs/explain.md). Pure: the evidence
// arrives parsed. For every target its first own step that ran (the status stream), then the first cause, in this
// order, that the evidence proves for that step: a build arg it sees changed, its instruction's text changed, an
// input image it stands on moved, the files its COPY/ADD copied changed, a dependency target it copies from
// changed, the cache import had nothing, it ran on another builder, a dependency was rebuilt; else unknown, naming
// the evidence that was missing. Nothing is inferred from what is absent.

export interface TargetEvidence {
  /** The parsed status stream; undefined when status-<target>.jsonl is absent or unreadable. */
  status: StatusVertices | undefined;
  /** The target's provenance; undefined when meta-<target>.json has none (or is absent). */
  provenance: Provenance | undefined;
  /** The node it ran on (run.json). */
  node: string | undefined;
}

export interface WhyEvidence {
  stamp: string;
  targets: Readonly<Record<string, TargetEvidence>>;
  /** Node → the content trees of its cache-debug-<node>.json; a node without the file is absent. */
  content: Readonly<Record<string, readonly ContentTree[]>>;
  /** Target → its in-run dependencies (run.json deps, else plan.json). */
  deps: Readonly<Record<string, readonly string[]>>;
  /**
   * Node → its builder before the measured run (run.json evidence.builders[].identity: `buildx du`'s oldest cache
   * record); absent when not recorded.
   */
  builders?: Readonly<Record<string, { oldestRecordCreatedAt: string | null; cacheRecords: number | null }>>;
  /**
   * Image ref (`host/repo:tag`) → the target of this run that pushes it (run.json uploadRefs): the harness turns a
   * `target:` context into the linked target's pushed image, so such an image moving is that dependency rebuilt.
   */
  producedBy?: Readonly<Record<string, string>>;
}

/** Cause kinds that are a change of the target's own inputs: a dependant rebuilt after them rebuilt because of them. */
const CHANGE_KINDS: ReadonlySet<MissCause['kind']> = new Set([
  'build-arg',
  'input-image',
  'instruction',
  'files',
  'dependency-rebuilt',
]);

const EVIDENCE = {
  previous:
    'a previous run of the same lane, harness and arch under the runs root (or `--against RUN`) to compare with',
  provenance:
    'provenance in the metadata file (meta-<target>.json `buildx.build.provenance`: bake `attest = [{ type = "provenance", mode = "max" }]` and BUILDX_METADATA_PROVENANCE=max)',
  maxProvenance:
    'mode=max provenance (its LLB and Dockerfile lines: bake `attest = [{ type = "provenance", mode = "max" }]`, BUILDX_METADATA_PROVENANCE=max)',
  cacheDebug:
    'the builder’s cache-key records (cache-debug-<node>.json: buildkitd `--save-cache-debug --debugaddr ADDR`, BuildKit v0.24.0 or later)',
  status: 'the status stream (status-<target>.jsonl, bake --progress=rawjson)',
} as const;

const MAX_LISTED = 20;

function topologicalOrder(targets: readonly string[], deps: WhyEvidence['deps']): string[] {
  const out: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (t: string) => {
    if (state.get(t) !== undefined) return;
    state.set(t, 'visiting');
    for (const d of deps[t] ?? []) if (targets.includes(d)) visit(d);
    state.set(t, 'done');
    out.push(t);
  };
  for (const t of [...targets].sort()) visit(t);
  return out;
}

interface MissContext {
  target: string;
  miss: StatusVertex;
  current: WhyEvidence;
  previous: WhyEvidence;
  why: ReadonlyMap<string, TargetWhy>;
}

/** The located steps of one Dockerfile in line order (its instructions as the LLB has them). */
function locatedSteps(p: Provenance, file: string): LlbStep[] {
  const steps = [...(p.llb?.steps.values() ?? [])].filter((s) => s.location?.file === file);
  const byLine = new Map<number, LlbStep>();
  for (const s of steps) if (!byLine.has(s.location!.line)) byLine.set(s.location!.line, s);
  return [...byLine.values()].sort((a, b) => a.location!.line - b.location!.line);
}

function changedArgs(cur: Provenance, prev: Provenance): string[] {
  const names = new Set([...Object.keys(cur.buildArgs), ...Object.keys(prev.buildArgs)]);
  return [...names].filter((n) => cur.buildArgs[n] !== prev.buildArgs[n]).sort();
}

function changedImages(cur: Provenance, prev: Provenance): string[] {
  return Object.keys(cur.materials)
    .filter((ref) => prev.materials[ref] !== undefined && prev.materials[ref] !== cur.materials[ref])
    .sort();
}

/** How the bake file names an image: the named context whose value is it, else `docker-image://REF`. */
function nameImage(p: Provenance, ref: string): string {
  const value = `docker-image://${ref}`;
  return Object.values(p.contexts).find((v) => v === value) ?? value;
}

function explainMiss(ctx: MissContext): { cause: MissCause; missing: string[] } {
  const { target, miss, current, previous } = ctx;
  const missing: string[] = [];
  const curEv = current.targets[target]!;
  const prevEv = previous.targets[target];
  if (!prevEv)
    return {
      cause: { kind: 'unknown', missing: [`${target} in the compared run ${previous.stamp}`] },
      missing,
    };
  const [cur, prev] = [curEv.provenance, prevEv.provenance];
  const llb = cur?.llb;
  const stepId = llb?.digestToStep.get(miss.digest);
  const step = stepId === undefined ? undefined : llb!.steps.get(stepId);
  const ancestors = llb && step ? listAncestors(llb, step.id) : undefined;
  const producer = (ref: string) => current.producedBy?.[ref];
  if (cur && prev) {
    const args = changedArgs(cur, prev);
    // Images of the run's own targets moving are those targets rebuilt: dependency-rebuilt below, not an input.
    const images = changedImages(cur, prev).filter((ref) => producer(ref) === undefined);
    if (step && ancestors) {
      // (a) an arg the step's own command sees (BuildKit puts every declared ARG into the exec's env)
      const seen = args.filter(
        (n) => step.kind === 'exec' && (step.env ?? []).some((e) => e.startsWith(`${n}=`)),
      );
      if (seen.length > 0) {
        return { cause: toArgCause(seen[0]!, prev, cur), missing };
      }
      // (b) the instruction's text, against the instruction at the same place of the same Dockerfile
      if (step.location && prev.llb) {
        const curList = locatedSteps(cur, step.location.file);
        const prevList = locatedSteps(prev, step.location.file);
        const at = curList.findIndex((s) => s.location!.line === step.location!.line);
        const old = prevList[at]?.location?.text;
        if (old !== undefined && old !== step.location.text)
          return { cause: { kind: 'instruction', old, new: step.location.text }, missing };
      }
      // (c) an input image under the step moved
      const under = ancestors.flatMap((s) =>
        s.kind === 'source' && s.identifier?.startsWith('docker-image://') ? [s.identifier.slice(15)] : [],
      );
      const moved = images.find((ref) => under.includes(ref));
      if (moved !== undefined)
        return {
          cause: {
            kind: 'input-image',
            ref: nameImage(cur, moved),
            old: prev.materials[moved] ?? null,
            new: cur.materials[moved] ?? null,
          },
          missing,
        };
      // (d) the files a COPY/ADD from a local context copied
      const local =
        step.kind === 'file' &&
        step.inputs.some((id) => llb!.steps.get(id)?.identifier?.startsWith('local://'));
      // Only on the builder that built the target in the compared run: another builder's database holds another
      // history, so content new to it (the same files it never saw) is not a change between the two runs. Found
      // on the re-recorded box sample: aiter-wheel moved from anvil to strix with its REVISION unchanged.
      if (local && prevEv.node !== undefined && prevEv.node !== curEv.node) {
        missing.push(
          filesOnAnotherBuilder(step.location?.text ?? miss.name, target, curEv.node, prevEv.node),
        );
      } else if (local) {
        const node = curEv.node;
        const before = node === undefined ? undefined : previous.content[node];
        const after = node === undefined ? undefined : current.content[node];
        if (!before || !after) missing.push(EVIDENCE.cacheDebug);
        else {
          const pairs = pairNewContent(before, after);
          // A COPY --from=DEP of one file checksums that file alone (a tree of `.`): on a builder where a dependency
          // rebuilt, those are new too. A COPY of a context directory is the one tree with names.
          const named = pairs.length > 1 ? pairs.filter((p) => !p.after.files.has('.')) : pairs;
          if (named.length === 1) {
            const changes = diffTrees(named[0]!.before, named[0]!.after);
            const count = changes.added.length + changes.removed.length + changes.changed.length;
            return {
              cause: {
                kind: 'files',
                instruction: step.location?.text ?? miss.step?.instruction ?? miss.name,
                added: changes.added.slice(0, MAX_LISTED),
                removed: changes.removed.slice(0, MAX_LISTED),
                changed: changes.changed.slice(0, MAX_LISTED),
                count,
              },
              missing,
            };
          }
          missing.push(
            named.length === 0
              ? `new COPY/ADD content in cache-debug-${node}.json (it holds none the compared run's did not)`
              : `which of ${named.length} new COPY/ADD contents in cache-debug-${node}.json is this step's (several changed on one builder)`,
          );
        }
      }
    } else {
      if (!cur.llb) missing.push(EVIDENCE.maxProvenance);
      // Min-mode provenance still holds the args and the input digests: one difference and no other is that one.
      if (args.length === 1 && images.length === 0) {
        return { cause: toArgCause(args[0]!, prev, cur), missing };
      }
      if (images.length === 1 && args.length === 0) {
        const ref = images[0]!;
        return {
          cause: {
            kind: 'input-image',
            ref: nameImage(cur, ref),
            old: prev.materials[ref] ?? null,
            new: cur.materials[ref] ?? null,
          },
          missing,
        };
      }
    }
  } else missing.push(EVIDENCE.provenance);
  // (e) a dependency whose own inputs changed, that this step copies from
  const deps = (current.deps[target] ?? []).filter((d) => ctx.why.get(d)?.firstMiss);
  // The step must take the dependency in directly: `COPY --from=DEP` by name, or (LLB) an input that is DEP's pushed
  // image or a step of another Dockerfile. A later step stands on an earlier copy, which was cached (else it would be
  // the first miss): BuildKit keys a COPY by the content it copies, so a rebuilt dependency whose file came out the
  // same leaves that COPY cached (seen on the box).
  const usesDep = (d: string) =>
    miss.name.includes(`--from=${d}`) ||
    (step?.inputs ?? []).some((id) => {
      const source = llb?.steps.get(id)?.identifier;
      return source?.startsWith('docker-image://') === true && producer(source.slice(15)) === d;
    }) ||
    (step !== undefined &&
      step.inputs.some((id) => {
        const file = llb?.steps.get(id)?.location?.file;
        return file !== undefined && file !== cur?.entryPoint;
      }));
  const usedDeps = deps.filter(usesDep);
  const changedDeps = usedDeps.filter((d) => CHANGE_KINDS.has(ctx.why.get(d)!.cause?.kind ?? 'unknown'));
  if (changedDeps.length > 0) return { cause: { kind: 'dependency-rebuilt', targets: changedDeps }, missing };
  const filesInQuestion =
    missing.includes(EVIDENCE.cacheDebug) ||
    missing.some((m) => m.startsWith(FILES_ON_ANOTHER_BUILDER)) ||
    (!step && cur?.llb === undefined);
  // (e2) a dependency's image under the step (LLB ancestors) moved to a new digest, and nothing else under the step is
  // in question (same args, instruction, files): an earlier `COPY --from=DEP` stayed cached by the content it copied,
  // but the steps after it are keyed on the image's digest, so they run again. Found on the re-recorded sample: after
  // pytorch's source bump, bitsandbytes-wheel's `COPY --from=pytorch` was cached and its unchanged `COPY src` ran.
  const underImage = (d: string) =>
    (ancestors ?? []).some((s) => {
      const ref =
        s.kind === 'source' && s.identifier?.startsWith('docker-image://') ? s.identifier.slice(15) : '';
      return ref !== '' && producer(ref) === d && prev?.materials[ref] !== cur?.materials[ref];
    });
  const movedDeps = filesInQuestion
    ? []
    : deps.filter((d) => CHANGE_KINDS.has(ctx.why.get(d)!.cause?.kind ?? 'unknown') && underImage(d));
  if (movedDeps.length > 0) return { cause: { kind: 'dependency-rebuilt', targets: movedDeps }, missing };
  // (f) the cache import gave nothing: BuildKit's own error on the import vertex
  const failure = curEv.status?.importFailures[0];
  if (failure)
    return { cause: { kind: 'cache-import-empty', ref: failure.ref, evidence: 'ref-missing' }, missing };
  // (g) the builder's local cache no longer held the step, and nothing in the step's inputs is in question (a COPY from
  // the context whose files could not be compared is: left unknown). Shown by another builder than the compared
  // run's, or by the same builder's oldest cache record moving forward between the runs (pruned or recreated).
  const lost = filesInQuestion ? undefined : findLostCache(ctx, curEv.node, prevEv.node);
  if (lost) return { cause: lost, missing };
  // (h) a dependency rebuilt for any reason
  if (usedDeps.length > 0) return { cause: { kind: 'dependency-rebuilt', targets: usedDeps }, missing };
  const named =
    missing.length > 0
      ? missing
      : [
          'a record of why the builder held no cache for the step: nothing in the args, inputs, Dockerfile, files or cache import changed (a pruned builder leaves no trace the run recorded)',
        ];
  return { cause: { kind: 'unknown', missing: [...new Set(named)] }, missing };
}

/** A build arg's cause: its name and both values as the two runs' provenance hold them. */
function toArgCause(
  name: string,
  prev: { buildArgs: Readonly<Record<string, string>> },
  cur: { buildArgs: Readonly<Record<string, string>> },
): MissCause {
  return { kind: 'build-arg', name, old: prev.buildArgs[name] ?? null, new: cur.buildArgs[name] ?? null };
}

const FILES_ON_ANOTHER_BUILDER = 'the files of ';

/** Why a COPY's files were not compared: the target moved builder, and each builder's database has its own history. */
function filesOnAnotherBuilder(
  instruction: string,
  target: string,
  node: string | undefined,
  prevNode: string,
): string {
  return `${FILES_ON_ANOTHER_BUILDER}\`${instruction}\` compared on one builder (${target} ran on ${node ?? 'another node'}, the compared run built it on ${prevNode}: each builder's cache-key database holds its own history)`;
}

function findLostCache(
  { target, current, previous }: MissContext,
  node: string | undefined,
  prevNode: string | undefined,
): MissCause | undefined {
  if (node === undefined || prevNode === undefined) return undefined;
  if (node !== prevNode)
    return {
      kind: 'builder-cache-lost',
      builder: node,
      evidence: `${target} ran on ${node}; ${previous.stamp} built it on ${prevNode}`,
    };
  const [now, before] = [current.builders?.[node], previous.builders?.[node]];
  // The compared run built the target on this builder, so the builder held that build's records after it: none now is
  // a builder pruned or recreated since (seen on the box: `buildx prune -af` leaves `buildx du` no record at all).
  if (now?.cacheRecords === 0)
    return {
      kind: 'builder-cache-lost',
      builder: node,
      evidence: `buildx du: it held no cache record before this run (${before?.cacheRecords ?? '?'} before ${previous.stamp}, which built ${target} on it): pruned or recreated since`,
    };
  const [t1, t0] = [now?.oldestRecordCreatedAt, before?.oldestRecordCreatedAt];
  if (t1 && t0 && Date.parse(t1) > Date.parse(t0))
    return {
      kind: 'builder-cache-lost',
      builder: node,
      evidence: `buildx du: its oldest cache record moved ${t0} → ${t1} (pruned or recreated between ${previous.stamp} and this run; ${before?.cacheRecords ?? '?'} → ${now?.cacheRecords ?? '?'} records)`,
    };
  return undefined;
}

export interface RunWhyResult {
  /** Target → its why; a target without a status stream is left out (null in data.json). */
  targets: Map<string, TargetWhy>;
  run: RunWhy;
}

/** Every target's why (costSeconds null: priceMisses fills it), and the run's notes. */
export function buildRunWhy({
  current,
  previous,
}: {
  current: WhyEvidence;
  previous: WhyEvidence | undefined;
}): RunWhyResult {
  const names = Object.keys(current.targets);
  const why = new Map<string, TargetWhy>();
  const notes = new Set<string>();
  if (!previous)
    notes.add(`no run to compare with: every miss is unknown until there is ${EVIDENCE.previous}`);
  for (const target of topologicalOrder(names, current.deps)) {
    const ev = current.targets[target]!;
    if (!ev.status) {
      notes.add(`${target}: no status stream, so no first miss (${EVIDENCE.status})`);
      continue;
    }
    const others = new Set(names.filter((n) => n !== target));
    const own = ownDigests(ev.provenance);
    const steps = listOwnSteps(ev.status, { otherTargets: others, ...(own ? { ownDigests: own } : {}) });
    const miss = findFirstMiss(steps);
    if (!miss) {
      why.set(target, { firstMiss: null, cause: null, rebuiltAfter: [], costSeconds: null });
      continue;
    }
    const firstMiss = { vertex: miss.digest, name: miss.name };
    if (!previous) {
      why.set(target, {
        firstMiss,
        cause: { kind: 'unknown', missing: [EVIDENCE.previous] },
        rebuiltAfter: [],
        costSeconds: null,
      });
      continue;
    }
    const { cause, missing } = explainMiss({ target, miss, current, previous, why });
    for (const m of missing) notes.add(`not recorded: ${m}`);
    why.set(target, { firstMiss, cause, rebuiltAfter: [], costSeconds: null });
  }
  for (const [target, entry] of why) entry.rebuiltAfter = listRebuiltAfter(target, why);
  return { targets: why, run: { against: previous?.stamp ?? null, notes: [...notes] } };
}

/** With max provenance: the vertex digests of steps located in the target's own Dockerfile. */
function ownDigests(p: Provenance | undefined): Set<string> | undefined {
  if (!p?.llb || p.entryPoint === undefined) return undefined;
  const own = new Set<string>();
  for (const [digest, id] of p.llb.digestToStep)
    if (p.llb.steps.get(id)?.location?.file === p.entryPoint) own.add(digest);
  return own.size > 0 ? own : undefined;
}

/** The targets rebuilt because `target` was: dependants whose cause names it, or names one of those, transitively. */
function listRebuiltAfter(target: string, why: ReadonlyMap<string, TargetWhy>): string[] {
  const out = new Set<string>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const [name, entry] of why) {
      if (out.has(name) || entry.cause?.kind !== 'dependency-rebuilt') continue;
      if (entry.cause.targets.some((d) => d === target || out.has(d))) {
        out.add(name);
        grew = true;
      }
    }
  }
  return [...out].sort();
}
