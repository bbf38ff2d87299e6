// Wall-clock time in ms with sub-millisecond steps, for every timestamp the box writes (trace spans, the registry
// proxy's record). `performance.timeOrigin + performance.now()` is not that: on this project's test VMs the
// monotonic clock runs 0.5 % slow against the wall clock, so that sum drifts 5 ms per second from Date.now() —
// seconds, in a long-lived process — and two processes' timestamps stop lining up with each other and with the
// harness's run.json (Date.now()). Here performance.now() only fills in between re-anchorings to Date.now(),
// made whenever the two part by more than a millisecond; the result never goes backwards.

let base = Date.now() - performance.now();
let last = Number.NEGATIVE_INFINITY;

export function nowWallMs(): number {
  const perf = performance.now();
  const wall = Date.now();
  let now = base + perf;
  if (now < wall - 1 || now > wall + 1) {
    // Date.now() truncates: the true time is in [wall, wall + 1).
    base = wall + 0.5 - perf;
    now = wall + 0.5;
  }
  last = Math.max(last, now);
  return last;
}
