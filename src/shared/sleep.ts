// Shared waiting: a pause that an abort ends early (samplers wait out their interval this way).

/** Resolves after `ms`, or at once when `signal` aborts (never rejects). */
export async function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
