// Glob patterns on `<repository>:<tag>` (fleet.yaml `registry.cache_patterns`): `*` matches any run of characters
// (including `/`), `?` one character; everything else is literal.

import { toGlobRegExp } from '../../shared/glob.js';

export interface CacheMatcher {
  /** A manifest `<repository>:<tag>` (or `<repository>@<digest>`) matched against the full patterns. */
  isCacheManifest(repository: string, reference: string): boolean;
  /** A blob has no tag: it is cache when a pattern whose tag part is `*` matches its repository. */
  isCacheRepository(repository: string): boolean;
}

function splitPattern(pattern: string): { repository: string; tag: string } {
  const colon = pattern.lastIndexOf(':');
  return colon < 0
    ? { repository: pattern, tag: '*' }
    : { repository: pattern.slice(0, colon), tag: pattern.slice(colon + 1) };
}

const MEMO_SIZE = 10_000;

export function createCacheMatcher(patterns: readonly string[]): CacheMatcher {
  const full = patterns.map((pattern) => toGlobRegExp(pattern));
  const repositoryOnly = patterns
    .map(splitPattern)
    .filter((part) => part.tag === '*')
    .map((part) => toGlobRegExp(part.repository));
  // A registry log names a few repositories a million times: each is matched once (at most MEMO_SIZE remembered).
  const memo = new Map<string, boolean>();
  const isCacheRepository = (repository: string): boolean => {
    let cache = memo.get(repository);
    if (cache === undefined) {
      cache = repositoryOnly.some((regExp) => regExp.test(repository));
      if (memo.size < MEMO_SIZE) memo.set(repository, cache);
    }
    return cache;
  };
  return {
    isCacheManifest: (repository, reference) =>
      reference.includes(':')
        ? isCacheRepository(repository)
        : full.some((regExp) => regExp.test(`${repository}:${reference}`)),
    isCacheRepository,
  };
}
