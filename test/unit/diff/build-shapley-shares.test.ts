import { describe, expect, it } from 'vitest';
import { buildShapleyShares } from '../../../src/diff/build-shapley-shares.js';

// The Shapley split on games whose values are known: efficiency, symmetry, dummy, and independence of the order
// the players are listed in, exact and sampled.

const weights: Record<string, number> = { a: 5, b: 3, c: 3, d: 0, e: 8 };
/** The makespan of parallel jobs: only the longest counts (non-additive; b and c are symmetric, d is a dummy). */
const maxGame = (members: ReadonlySet<string>) => Math.max(0, ...[...members].map((p) => weights[p] ?? 0));
const sharesOf = (result: ReturnType<typeof buildShapleyShares>) =>
  Object.fromEntries([...result.shares].map(([player, share]) => [player, share.seconds]));

describe('buildShapleyShares (exact)', () => {
  const result = buildShapleyShares({ players: Object.keys(weights), value: maxGame });
  const shares = sharesOf(result);

  it('is exact for five players', () => {
    expect(result.method).toBe('exact');
    expect(result.permutations).toBeNull();
  });

  it('adds up to v(all) − v(none) (efficiency)', () => {
    const total = Object.values(shares).reduce((sum, x) => sum + x, 0);
    expect(total).toBeCloseTo(maxGame(new Set(Object.keys(weights))) - maxGame(new Set()), 12);
  });

  it('gives players that contribute alike the same share (symmetry)', () => {
    expect(shares.b).toBeCloseTo(shares.c!, 12);
  });

  it('gives a player that changes nothing 0 (dummy)', () => {
    expect(shares.d).toBe(0);
  });

  it('matches the hand-worked values of the max game', () => {
    // Weights 0, 3, 3, 5, 8: each rise of the max is shared by the players that reach it. 0 → 3 by b, c, a, e
    // (3/4 each); 3 → 5 by a, e (1 each); 5 → 8 by e alone (3).
    expect(shares.e).toBeCloseTo(3 + 1 + 0.75, 12);
    expect(shares.a).toBeCloseTo(1 + 0.75, 12);
    expect(shares.b).toBeCloseTo(0.75, 12);
  });

  it('does not depend on the order the players are listed in', () => {
    const reversed = buildShapleyShares({ players: Object.keys(weights).reverse(), value: maxGame });
    expect(sharesOf(reversed)).toEqual(shares);
  });

  it('splits a pure interaction evenly (both needed: the glove game)', () => {
    const glove = buildShapleyShares({
      players: ['left', 'right'],
      value: (members) => (members.has('left') && members.has('right') ? 1 : 0),
    });
    expect(sharesOf(glove)).toEqual({ left: 0.5, right: 0.5 });
  });
});

describe('buildShapleyShares (sampled)', () => {
  const many = Object.fromEntries(
    [...Array(14).keys()].map((i) => [`p${String(i).padStart(2, '0')}`, (i % 5) + 1]),
  );
  const game = (members: ReadonlySet<string>) => Math.max(0, ...[...members].map((p) => many[p] ?? 0));
  const players = Object.keys(many);
  const sampled = buildShapleyShares({ players, value: game, seed: 7 });

  it('samples above ten players and says how many permutations, with which seed', () => {
    expect(sampled.method).toBe('sampled');
    expect(sampled.permutations).toBe(2000);
    expect(sampled.seed).toBe(7);
  });

  it('still adds up exactly to v(all) − v(none)', () => {
    const total = [...sampled.shares.values()].reduce((sum, s) => sum + s.seconds, 0);
    expect(total).toBeCloseTo(game(new Set(players)) - game(new Set()), 9);
  });

  it('is close to the exact values, within a few standard errors', () => {
    const exact = buildShapleyShares({ players, value: game, exactMaxPlayers: 14 });
    for (const [player, share] of sampled.shares) {
      const truth = exact.shares.get(player)!.seconds;
      expect(Math.abs(share.seconds - truth)).toBeLessThanOrEqual(4 * share.standardError! + 1e-9);
    }
  });

  it('does not depend on the order the players are listed in (they are sorted before sampling)', () => {
    const shuffled = [...players].sort((x, y) => (x.at(-1)! < y.at(-1)! ? -1 : 1));
    expect(sharesOf(buildShapleyShares({ players: shuffled, value: game, seed: 7 }))).toEqual(
      sharesOf(sampled),
    );
  });

  it('gives a dummy 0 when sampling too', () => {
    const withDummy = buildShapleyShares({
      players: [...players, 'zz-dummy'],
      value: (members) => game(new Set([...members].filter((p) => p !== 'zz-dummy'))),
      exactMaxPlayers: 0,
      permutations: 50,
    });
    expect(withDummy.shares.get('zz-dummy')!.seconds).toBe(0);
  });
});
