import type { Config } from '../../../config/index.js';
import type { Harness } from '../../../artifacts/index.js';

// What a harness means for one run: where it pushes, which sccache prefix it uses, which caches
// it turns off. Pure; recorded in run.json and stated on every report headline.

export interface RunSettings {
  harness: Harness;
  /** cold = no caches (cold, and bench); warm = caches on. */
  mode: 'cold' | 'warm';
  /** REGISTRY_NAME for every build of the run. */
  namespace: string;
  liveNamespace: string;
  sccachePrefix: string;
  liveSccachePrefix: string;
  /** `--no-cache` on every measured build. */
  noCache: boolean;
  /** `--set *.cache-to=`: the cache export is neither done nor timed. */
  clearCacheTo: boolean;
  /** Pass the sccache prefix as a build arg (only when it differs from the live one). */
  overrideSccachePrefix: boolean;
  /** 1 = one target at a time across the fleet. */
  maxConcurrent: number | undefined;
}

export interface CreateRunSettingsOptions {
  harness: Harness;
  config: Config;
  stamp: string;
  /** Appended to a cold run's namespace (PERF_COLD_NAMESPACE, read by the CLI), e.g. `-ci`; '' for none. */
  coldNamespaceSuffix: string;
}

export function createRunSettings({
  harness,
  config,
  stamp,
  coldNamespaceSuffix,
}: CreateRunSettingsOptions): RunSettings {
  const live = config.registry.name;
  const livePrefix = config.sccache.keyPrefix;
  const base = { harness, liveNamespace: live, liveSccachePrefix: livePrefix };
  switch (harness) {
    case 'cold':
      return {
        ...base,
        mode: 'cold',
        namespace: `${live}${config.registry.coldSuffix}${coldNamespaceSuffix}`,
        sccachePrefix: `${livePrefix}-coldrun-${stamp}`,
        noCache: true,
        clearCacheTo: true,
        overrideSccachePrefix: true,
        maxConcurrent: undefined,
      };
    case 'warm':
      return {
        ...base,
        mode: 'warm',
        namespace: live,
        sccachePrefix: livePrefix,
        noCache: false,
        clearCacheTo: false,
        overrideSccachePrefix: false,
        maxConcurrent: undefined,
      };
    // What each target costs: one at a time, every cache isolated (no layer cache, an sccache prefix of its own,
    // its own namespace, no cache export), so a second bench of the same sources measures the same work.
    case 'bench':
      return {
        ...base,
        mode: 'cold',
        namespace: `${live}${config.registry.benchSuffix}`,
        sccachePrefix: `${livePrefix}-bench-${stamp}`,
        noCache: true,
        clearCacheTo: true,
        overrideSccachePrefix: true,
        maxConcurrent: 1,
      };
  }
}
