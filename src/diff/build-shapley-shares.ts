import { createRandom } from '../shared/random.js';

// Shapley values of a set of players under a value function v(S): each player's marginal contribution
// v(S ∪ {i}) − v(S), averaged over every order in which the players could join. Pure. The shares add up to
// v(all) − v(none) exactly (efficiency), two players that contribute alike get the same share (symmetry), a player
// that changes nothing gets 0 (dummy), and the result does not depend on the order the players are listed in (they
// are sorted first). Exact over all 2^k coalitions up to `exactMaxPlayers`; above it, a seeded estimate over
// antithetic pairs of random orders (each order and its reverse), which keeps efficiency exact.

const EXACT_MAX_PLAYERS = 10;
/** Orders sampled by default: 2000, fewer above 50 players so one split stays near 100 000 evaluations of v. */
function toDefaultPermutations(players: number): number {
  return Math.min(2000, Math.max(200, 2 * Math.ceil(50_000 / Math.max(1, players))));
}
const SHAPLEY_SEED = 29;

export interface BuildShapleySharesOptions {
  players: readonly string[];
  /** v(S). Called with a set the caller must not keep: it changes between calls. */
  value: (members: ReadonlySet<string>) => number;
  exactMaxPlayers?: number;
  /** Orders sampled when there are more players than `exactMaxPlayers` (rounded up to an even number); default toDefaultPermutations. */
  permutations?: number;
  seed?: number;
}

interface ShapleyShare {
  seconds: number;
  /** Standard error of a sampled share; null when exact. */
  standardError: number | null;
}

export interface ShapleyShares {
  method: 'exact' | 'sampled';
  permutations: number | null;
  seed: number | null;
  /** v(none) and v(all). */
  empty: number;
  full: number;
  shares: Map<string, ShapleyShare>;
}

function buildExact(players: readonly string[], value: BuildShapleySharesOptions['value']): ShapleyShares {
  const k = players.length;
  const values = new Float64Array(1 << k);
  for (let mask = 0; mask < 1 << k; mask++)
    values[mask] = value(new Set(players.filter((_, i) => mask & (1 << i))));
  const factorial = [1];
  for (let s = 1; s <= k; s++) factorial.push(factorial[s - 1]! * s);
  const weight = (size: number) => (factorial[size]! * factorial[k - size - 1]!) / factorial[k]!;
  const shares = new Map<string, ShapleyShare>();
  players.forEach((player, i) => {
    let sum = 0;
    for (let mask = 0; mask < 1 << k; mask++) {
      if (mask & (1 << i)) continue;
      sum += weight(countBits(mask)) * (values[mask | (1 << i)]! - values[mask]!);
    }
    shares.set(player, { seconds: sum, standardError: null });
  });
  return {
    method: 'exact',
    permutations: null,
    seed: null,
    empty: values[0]!,
    full: values[(1 << k) - 1]!,
    shares,
  };
}

function countBits(mask: number): number {
  let count = 0;
  for (let m = mask; m > 0; m &= m - 1) count++;
  return count;
}

/** v(S) along one order: each player's marginal contribution as it joins. */
function walkOrder(
  order: readonly number[],
  players: readonly string[],
  value: BuildShapleySharesOptions['value'],
  ends: { empty: number; full: number },
): Float64Array {
  const marginal = new Float64Array(players.length);
  const members = new Set<string>();
  let before = ends.empty;
  order.forEach((i, step) => {
    members.add(players[i]!);
    const after = step === order.length - 1 ? ends.full : value(members);
    marginal[i] = after - before;
    before = after;
  });
  return marginal;
}

function shuffle(count: number, random: ReturnType<typeof createRandom>): number[] {
  const order = [...Array(count).keys()];
  for (let i = count - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

function buildSampled(
  players: readonly string[],
  value: BuildShapleySharesOptions['value'],
  { permutations, seed }: { permutations: number; seed: number },
): ShapleyShares {
  const pairs = Math.max(1, Math.ceil(permutations / 2));
  const ends = { empty: value(new Set()), full: value(new Set(players)) };
  const random = createRandom(seed);
  const mean = new Float64Array(players.length);
  const m2 = new Float64Array(players.length);
  for (let p = 1; p <= pairs; p++) {
    const order = shuffle(players.length, random);
    const forward = walkOrder(order, players, value, ends);
    const backward = walkOrder([...order].reverse(), players, value, ends);
    for (let i = 0; i < players.length; i++) {
      const sample = (forward[i]! + backward[i]!) / 2;
      const delta = sample - mean[i]!;
      mean[i]! += delta / p;
      m2[i]! += delta * (sample - mean[i]!);
    }
  }
  const shares = new Map<string, ShapleyShare>();
  players.forEach((player, i) =>
    shares.set(player, {
      seconds: mean[i]!,
      standardError: pairs > 1 ? Math.sqrt(m2[i]! / (pairs - 1) / pairs) : null,
    }),
  );
  return { method: 'sampled', permutations: pairs * 2, seed, ...ends, shares };
}

export function buildShapleyShares({
  players,
  value,
  exactMaxPlayers = EXACT_MAX_PLAYERS,
  permutations,
  seed = SHAPLEY_SEED,
}: BuildShapleySharesOptions): ShapleyShares {
  const sorted = [...new Set(players)].sort();
  if (sorted.length <= exactMaxPlayers) return buildExact(sorted, value);
  return buildSampled(sorted, value, {
    permutations: permutations ?? toDefaultPermutations(sorted.length),
    seed,
  });
}
