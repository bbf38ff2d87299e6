import { RocmPerfError } from '../shared/errors.js';

// A run serve cannot show (its run.json is broken, its report failed to build): viewers get `reason`, the server's
// log gets `message` with the paths and the parser's words.

export class BrokenRunError extends RocmPerfError {
  readonly dir: string;
  readonly reason: string;

  constructor({ dir, reason, message }: { dir: string; reason: string; message: string }) {
    super('ROCMPERF_RUN_BROKEN', message);
    this.dir = dir;
    this.reason = reason;
  }
}
