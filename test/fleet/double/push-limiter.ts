// BuildKit's per-registry push limit (util/resolver/limited): one group per buildkitd process, keyed by registry
// host, of DefaultMaxConcurrency = 4 slots for blobs and one more for `+json` descriptors (configs, manifests),
// which skip the first semaphore. The image push goes through it; the registry cache export has its own
// semaphore of 4 for its layer blobs (cache/remotecache/export.go, v0.27+; one at a time before).

export const defaultMaxConcurrency = 4;

export interface Semaphore {
  acquire: () => Promise<() => void>;
}

export function createSemaphore(size: number): Semaphore {
  let free = size;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  return {
    acquire: () =>
      new Promise((resolve) => {
        const grant = () => resolve(release);
        if (free > 0) {
          free--;
          grant();
        } else waiting.push(grant);
      }),
  };
}

export interface PushLimiter {
  /** Holds a slot for one descriptor's push to `host`; call the returned function when done. */
  acquire: (host: string, mediaType: string) => Promise<() => void>;
}

export function createPushLimiter(size = defaultMaxConcurrency): PushLimiter {
  const groups = new Map<string, [Semaphore, Semaphore]>();
  return {
    acquire: async (host, mediaType) => {
      let group = groups.get(host);
      if (!group) groups.set(host, (group = [createSemaphore(size), createSemaphore(size + 1)]));
      const releaseBlob = mediaType.endsWith('+json') ? undefined : await group[0].acquire();
      const releaseAny = await group[1].acquire();
      return () => {
        releaseAny();
        releaseBlob?.();
      };
    },
  };
}

/** images.Dispatch over independent descriptors: all at once, each waiting for its own slot. */
export async function dispatchAll<T>(items: readonly T[], run: (item: T) => Promise<void>): Promise<void> {
  const results = await Promise.allSettled(items.map(run));
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
}
