// One loop per node, for the samplers: started once, stopped together. Each loop takes the shared abort signal;
// a loop that fails ends alone, and stop() rethrows the first failure once every loop has ended.

export interface NodeLoops {
  start(): void;
  /** Aborts every loop, waits for each to end, then rethrows the first loop's failure. */
  stop(): Promise<void>;
}

export function createNodeLoops<N>(
  nodes: readonly N[],
  loop: (node: N, signal: AbortSignal) => Promise<void>,
  controller: AbortController = new AbortController(),
): NodeLoops {
  let loops: Promise<{ error: unknown } | undefined>[] | undefined;
  return {
    start() {
      loops ??= nodes.map((node) =>
        loop(node, controller.signal).then(
          () => undefined,
          (error: unknown) => ({ error }),
        ),
      );
    },
    async stop() {
      controller.abort();
      const results = await Promise.all(loops ?? []);
      const failure = results.find((result) => result !== undefined);
      if (failure !== undefined) throw failure.error;
    },
  };
}
