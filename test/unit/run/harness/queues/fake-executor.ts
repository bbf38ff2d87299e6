import { createFakeClock } from '../../../../helpers/fake-clock.js';
import type { ExecResult, Executor, QueueJob } from '../../../../../src/run/executors/executor.js';

// A discrete-event fake: each job takes `durationMs` of fake time; `drive` completes the job that
// ends soonest, advances the clock to its end, and repeats until `until` settles.

export interface FakeJobSpec {
  durationMs: number;
  result?: ExecResult;
}

interface Pending {
  job: QueueJob;
  endMs: number;
  resolve: (result: ExecResult) => void;
  result: ExecResult;
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

export function createSimulatedExecutor(specs: Record<string, FakeJobSpec>) {
  const clock = createFakeClock(1_000);
  const pending: Pending[] = [];
  const calls: { job: QueueJob; atMs: number }[] = [];
  const timers: { atMs: number; wake: () => void }[] = [];
  /** A timer on the fake clock: `drive` fires it when fake time reaches it. */
  const wakeAfter = (ms: number, wake: () => void) => {
    const timer = { atMs: clock.nowMs() + ms, wake };
    timers.push(timer);
    return () => {
      const at = timers.indexOf(timer);
      if (at >= 0) timers.splice(at, 1);
    };
  };
  const executor: Executor = {
    run(job, { signal }) {
      calls.push({ job, atMs: clock.nowMs() });
      const spec = specs[job.target] ?? { durationMs: 1_000 };
      return new Promise<ExecResult>((resolve) => {
        const entry: Pending = {
          job,
          endMs: clock.nowMs() + spec.durationMs,
          resolve,
          result: spec.result ?? { ok: true },
        };
        pending.push(entry);
        signal.addEventListener('abort', () => {
          pending.splice(pending.indexOf(entry), 1);
          resolve({ ok: false, exitCode: 130, error: 'cancelled' });
        });
      });
    },
  };
  async function drive<T>(until: Promise<T>, hooks: { atMs?: number; action?: () => void } = {}): Promise<T> {
    let done = false;
    const result = until.finally(() => {
      done = true;
    });
    let hookFired = false;
    for (;;) {
      await flush();
      if (done) return result;
      pending.sort((a, b) => a.endMs - b.endMs || a.job.target.localeCompare(b.job.target));
      const next = pending[0];
      if (hooks.atMs !== undefined && !hookFired && (next === undefined || next.endMs > hooks.atMs)) {
        clock.advance(Math.max(0, hooks.atMs - clock.nowMs()));
        hookFired = true;
        hooks.action?.();
        continue;
      }
      timers.sort((a, b) => a.atMs - b.atMs);
      const timer = timers[0];
      if (timer && (next === undefined || timer.atMs < next.endMs)) {
        timers.shift();
        clock.advance(Math.max(0, timer.atMs - clock.nowMs()));
        timer.wake();
        continue;
      }
      if (!next) throw new Error('simulation stuck: nothing running and the queues have not settled');
      pending.shift();
      clock.advance(next.endMs - clock.nowMs());
      next.resolve(next.result);
    }
  }
  return { executor, clock, calls, drive, wakeAfter };
}
