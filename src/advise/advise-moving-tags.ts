import type { Advice } from '../artifacts/index.js';
import type { AdviseInput, ProvenanceFact } from './advise-input.js';
import { findMissedBy, replayCached } from './replay-cached.js';

// An input image referenced by a moving tag: in the provenance `materials` of the lane's runs, one tag resolved to
// different digests. The action pins it by digest. The saving is this run's: the targets that missed because the
// tag moved since the previous run, replayed cached; 0 when it did not move this time. Pure.

interface Moving {
  ref: string;
  targets: string[];
  /** Newest first: the digest each run resolved, with the run. */
  seen: { stamp: string; digest: string }[];
}

function digestOf(provenance: ReadonlyMap<string, ProvenanceFact>, ref: string): string | undefined {
  for (const fact of provenance.values()) {
    const material = fact.materials.find((m) => m.ref === ref);
    if (material) return material.digest;
  }
  return undefined;
}

/** `host/repo/name:tag` → `repo/name`: the repository a registry log and a trace's pushes name. */
const repositoryOf = (ref: string) => ref.replace(/^[^/]+\//, '').replace(/[:@].*$/, '');

function findMoving(input: AdviseInput): Moving[] {
  const runs = [{ stamp: input.stamp, provenance: input.provenance }, ...input.history];
  // An image one of the run's own targets pushes (a `target:` context the harness turned into a pushed image) moves
  // because that target rebuilt: that is a dependency rebuilt (docs/explain.md), not a tag to pin.
  const pushedByRun = new Set(
    [...input.pushes.values()].flatMap((pushes) =>
      pushes.filter((push) => push.kind === 'image').map((push) => push.repository),
    ),
  );
  const refs = new Map<string, string[]>();
  for (const [target, fact] of input.provenance)
    for (const material of fact.materials)
      if (!material.pinned && !pushedByRun.has(repositoryOf(material.ref)))
        refs.set(material.ref, [...(refs.get(material.ref) ?? []), target]);
  const moving: Moving[] = [];
  for (const [ref, targets] of [...refs].sort(([a], [b]) => a.localeCompare(b))) {
    const seen = runs.flatMap((run) => {
      const digest = digestOf(run.provenance, ref);
      return digest === undefined ? [] : [{ stamp: run.stamp, digest }];
    });
    if (new Set(seen.map((s) => s.digest)).size > 1)
      moving.push({ ref, targets: [...new Set(targets)].sort(), seen });
  }
  return moving;
}

const short = (digest: string) => `${digest.slice(0, 19)}…`;

/** A `why` cause names the ref as the bake file does (`docker-image://…`, a bare tag): match on the tag's text. */
const isSameRef = (named: string, ref: string) => named === ref || named.endsWith(ref) || ref.endsWith(named);

export function adviseMovingTags(input: AdviseInput): Advice[] {
  return findMoving(input).map((moving) => {
    const [now, before] = moving.seen;
    const movedNow = before !== undefined && now!.stamp === input.stamp && now!.digest !== before.digest;
    const missed = movedNow
      ? findMissedBy(
          input,
          moving.targets,
          (cause) => cause.kind === 'input-image' && isSameRef(cause.ref, moving.ref),
        )
      : { targets: [], evidence: 'it resolved to the same digest as in the previous run' };
    const saving = replayCached(input, missed.targets);
    const history = moving.seen.map((s) => `${s.stamp} ${short(s.digest)}`).join(', ');
    return {
      kind: 'moving-tag' as const,
      action: `Pin ${moving.ref} by digest (${moving.ref.replace(/:[^:/]+$/, '')}@${now!.digest}) and move the pin on purpose: the tag moved between runs, and every move rebuilds ${moving.targets.join(', ')}.`,
      savingSeconds: saving.savingSeconds,
      evidence: [
        `provenance materials (meta-TARGET.json): ${moving.ref} resolved to ${new Set(moving.seen.map((s) => s.digest)).size} digests over ${moving.seen.length} runs (${history})`,
        movedNow ? `it moved since ${before.stamp}; ${missed.evidence}` : missed.evidence,
        ...saving.evidence,
      ],
      targets: moving.targets,
      nodes: [],
    };
  });
}
