import { closeSync, openSync, writeSync } from 'node:fs';
import { createRandom, generatePushEvents, renderZotLine } from '../../bench/generate-logs.js';

// Grows the box's Zot log on the services host while the run is live: real-layout (slog-era session) lines,
// stamped now, appended (O_APPEND, whole lines per write, as the proxy writes its own) once a second.

export interface ZotLogGrower {
  /** Bytes appended so far. */
  writtenBytes: () => number;
  /** Sets the rate from now on (the run's expected length is known only once it is planned). */
  setBytesPerSecond: (rate: number) => void;
  stop: () => void;
}

export function growZotLog(logPath: string, bytesPerSecond: number): ZotLogGrower {
  const random = createRandom(16);
  const fd = openSync(logPath, 'a');
  let rate = bytesPerSecond;
  let written = 0;
  let goroutine = 90_000;
  let lastMs = Date.now();
  const tick = () => {
    const nowMs = Date.now();
    const due = (rate * (nowMs - lastMs)) / 1000;
    lastMs = nowMs;
    const lines: string[] = [];
    let bytes = 0;
    while (bytes < due) {
      for (const event of generatePushEvents(random, nowMs, goroutine++)) {
        const line = renderZotLine(event, 'slog');
        lines.push(line);
        bytes += Buffer.byteLength(line) + 1;
      }
    }
    if (lines.length > 0) written += writeSync(fd, `${lines.join('\n')}\n`);
  };
  const timer = setInterval(tick, 1000);
  return {
    writtenBytes: () => written,
    setBytesPerSecond: (next) => {
      rate = next;
    },
    stop: () => {
      clearInterval(timer);
      closeSync(fd);
    },
  };
}
