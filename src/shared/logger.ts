import {
  pino,
  destination as pinoDestination,
  levels,
  multistream,
  type Level,
  type Logger,
  type StreamEntry,
} from 'pino';

export type { Logger };

export interface LoggerOptions {
  /** Level of the stderr stream: the command's `--log-level` (its default, warn, is the flag table's). */
  level: string;
  /** A file that gets every event at debug level too (a run's run.log), beside stderr. */
  destination?: string;
}

const toLevel = (name: string): Level | 'silent' => (name in levels.values ? (name as Level) : 'silent');

// Logs go to stderr (and a run's run.log); results go to stdout.
export function createLogger({ level, destination }: LoggerOptions): Logger {
  const stderrLevel = toLevel(level);
  const streams: (StreamEntry<Level> & { level: Level })[] = [];
  if (stderrLevel !== 'silent') streams.push({ level: stderrLevel, stream: pinoDestination(2) });
  if (destination !== undefined)
    streams.push({ level: 'debug', stream: pinoDestination({ dest: destination, sync: true, mkdir: true }) });
  // The logger passes on what its most verbose stream wants; each stream filters by its own level.
  const lowest = streams
    .map((entry) => entry.level)
    .sort((a, b) => (levels.values[a] ?? 0) - (levels.values[b] ?? 0))[0];
  return pino({ level: lowest ?? 'silent', base: undefined }, multistream(streams));
}
