import type { Advice } from '../artifacts/index.js';
import type { AdviseInput, ProvenanceFact } from './advise-input.js';
import { findMissedBy, replayCached } from './replay-cached.js';

// A build arg that changes every run and defeats the cache: over the lane's last runs (provenance
// `invocation.parameters.args`, at least 3 runs), every run gave it a new value. Pure.

const MIN_RUNS = 3;

interface Volatile {
  name: string;
  targets: string[];
  /** Newest first. */
  values: string[];
  stamps: string[];
}

function readValues(
  runs: readonly { stamp: string; provenance: ReadonlyMap<string, ProvenanceFact> }[],
  target: string,
  name: string,
) {
  return runs.flatMap((run) => {
    const value = run.provenance.get(target)?.args[name];
    return value === undefined ? [] : [{ stamp: run.stamp, value }];
  });
}

function findVolatile(input: AdviseInput): Volatile[] {
  const runs = [{ stamp: input.stamp, provenance: input.provenance }, ...input.history];
  const byName = new Map<string, Volatile>();
  for (const [target, fact] of [...input.provenance].sort(([a], [b]) => a.localeCompare(b)))
    for (const name of Object.keys(fact.args).sort()) {
      const seen = readValues(runs, target, name);
      if (seen.length < MIN_RUNS || seen[0]!.stamp !== input.stamp) continue;
      if (!seen.every((entry, k) => k === 0 || entry.value !== seen[k - 1]!.value)) continue;
      const entry = byName.get(name) ?? {
        name,
        targets: [],
        values: seen.map((s) => s.value),
        stamps: seen.map((s) => s.stamp),
      };
      entry.targets.push(target);
      byName.set(name, entry);
    }
  return [...byName.values()];
}

export function adviseVolatileInputs(input: AdviseInput): Advice[] {
  return findVolatile(input).map((volatile) => {
    const missed = findMissedBy(
      input,
      volatile.targets,
      (cause) => cause.kind === 'build-arg' && cause.name === volatile.name,
    );
    const saving = replayCached(input, missed.targets);
    const shown = volatile.values.slice(0, 4).map((v) => `\`${v.length > 40 ? `${v.slice(0, 40)}…` : v}\``);
    return {
      kind: 'volatile-input' as const,
      action: `Stop build arg ${volatile.name} changing every run (it defeats the layer cache of ${volatile.targets.join(', ')}): derive it from the inputs, or pass it where no cache key sees it.`,
      savingSeconds: saving.savingSeconds,
      evidence: [
        `provenance (meta-TARGET.json invocation.parameters.args) of the last ${volatile.values.length} runs of the lane (${volatile.stamps.join(', ')}): ${volatile.name} = ${shown.join(', ')}${volatile.values.length > 4 ? ', …' : ''}, a new value in each`,
        missed.evidence,
        ...saving.evidence,
      ],
      targets: volatile.targets,
      nodes: [],
    };
  });
}
