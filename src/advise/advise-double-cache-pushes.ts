import type { Advice } from '../artifacts/index.js';
import { formatBytes } from '../shared/format-units.js';
import type { AdviseInput, BlobPush } from './advise-input.js';
import { describeSaving, notReplayable } from './describe-saving.js';
import { replayWhatIf } from './replay-what-if.js';

// A cache export that pushes the image's layers a second time: the same blob digest PUT twice by one target's
// export (the image push and the mode=max cache push), as its trace shows, with the registry log's writes of that
// digest as independent evidence. The what-if replays the run without the second push's bytes at the node's
// measured throughput. Pure.

interface Duplicate {
  digest: string;
  bytes: number;
  repositories: string[];
  overlapping: boolean;
}

/** The push kept as "the second": the cache one when the trace tells, else the later one. */
function pickSecond(pushes: readonly BlobPush[]): BlobPush {
  const cache = pushes.find((push) => push.kind === 'cache');
  return cache ?? [...pushes].sort((a, b) => b.startMs - a.startMs)[0]!;
}

function findDuplicates(pushes: readonly BlobPush[]): Duplicate[] {
  const byDigest = new Map<string, BlobPush[]>();
  for (const push of pushes) byDigest.set(push.digest, [...(byDigest.get(push.digest) ?? []), push]);
  const duplicates: Duplicate[] = [];
  for (const [digest, list] of [...byDigest].sort(([a], [b]) => a.localeCompare(b))) {
    if (list.length < 2) continue;
    const second = pickSecond(list);
    const first = list.find((push) => push !== second)!;
    duplicates.push({
      digest,
      bytes: second.bytes ?? 0,
      repositories: list.map((push) => push.repository),
      overlapping: first.startMs < second.endMs && second.startMs < first.endMs,
    });
  }
  return duplicates;
}

function describeRegistry(input: AdviseInput, duplicates: readonly Duplicate[]): string {
  const writes = input.registryBlobWrites;
  if (!writes) return 'registry log: not in the run dir, so the traces alone show it';
  const seen = duplicates.filter((d) => (writes.get(d.digest)?.length ?? 0) >= 2);
  const example = seen[0];
  const where = example
    ? ` (e.g. ${short(example.digest)} into ${[...new Set(writes.get(example.digest))].join(' and ')})`
    : '';
  return `registry log: ${seen.length} of these ${duplicates.length} blobs were written at least twice${where}`;
}

const short = (digest: string) => `${digest.slice(0, 19)}…`;

interface TargetDuplicates {
  target: string;
  node: string | undefined;
  duplicates: Duplicate[];
  bytes: number;
}

function findTargetDuplicates(input: AdviseInput): TargetDuplicates[] {
  return [...input.pushes]
    .map(([target, pushes]) => {
      const duplicates = findDuplicates(pushes);
      return {
        target,
        node: input.model.summary.targets.find((t) => t.target === target)?.node,
        duplicates,
        bytes: duplicates.reduce((sum, d) => sum + d.bytes, 0),
      };
    })
    .filter((entry) => entry.duplicates.length > 0)
    .sort((a, b) => b.bytes - a.bytes || a.target.localeCompare(b.target));
}

function describeTarget({ target, duplicates, bytes }: TargetDuplicates): string {
  const overlapping = duplicates.filter((d) => d.overlapping).length;
  const repositories = [...new Set(duplicates.flatMap((d) => d.repositories))].sort();
  return `trace-${target}.json: ${duplicates.length} blob(s), ${formatBytes(bytes)}, pushed twice (into ${repositories.join(' and ')}); ${overlapping} of the pairs ran at the same time`;
}

/** One action for the run (the fix is one cache-to setting): every target's second pushes left out together. */
export function adviseDoubleCachePushes(input: AdviseInput): Advice[] {
  const found = findTargetDuplicates(input);
  if (found.length === 0) return [];
  const bytes = found.reduce((sum, entry) => sum + entry.bytes, 0);
  const blobs = found.flatMap((entry) => entry.duplicates);
  const shown = found.slice(0, 5).map(describeTarget);
  const evidence = [
    `${found.length} target(s) pushed ${blobs.length} blob(s), ${formatBytes(bytes)}, once for the image and again for the cache export`,
    ...shown,
    ...(found.length > shown.length ? [`and ${found.length - shown.length} more target(s)`] : []),
    describeRegistry(input, blobs),
  ];
  const base = {
    kind: 'double-cache-push' as const,
    action: `Push the image layers once: the mode=max cache export re-sends ${blobs.length} layer(s) (${formatBytes(bytes)}) the image export already pushes, in ${found.length} target(s) (docs/advise.md: inline cache, or a cache-to ref in the image's repository exported after it).`,
    targets: found.map((entry) => entry.target),
    nodes: [...new Set(found.flatMap((entry) => (entry.node ? [entry.node] : [])))].sort(),
  };
  const side = input.side;
  const replayable = side !== null && found.every((entry) => side.targets[entry.target] !== undefined);
  if (!side || !replayable)
    return [{ ...base, savingSeconds: null, evidence: [...evidence, notReplayable(input)] }];
  const replay = replayWhatIf(side, (copy) => {
    for (const entry of found) {
      const figures = copy.targets[entry.target]!;
      figures.uploadBytes = Math.max(0, figures.uploadBytes - entry.bytes);
    }
  });
  return [
    {
      ...base,
      savingSeconds: replay.savingSeconds,
      evidence: [...evidence, describeSaving(replay, `the second pushes (${formatBytes(bytes)}) left out`)],
    },
  ];
}
