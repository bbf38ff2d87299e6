import { pino, destination as pinoDestination, type Logger } from 'pino';

export type { Logger };

export interface LoggerOptions {
  level?: string;
  /** A file to write JSON logs to instead of stderr. */
  destination?: string;
}

// Logs go to stderr (or a file); results go to stdout.
export function createLogger({
  level = process.env.LOG_LEVEL ?? 'warn',
  destination,
}: LoggerOptions = {}): Logger {
  const stream =
    destination === undefined
      ? pinoDestination(2)
      : pinoDestination({ dest: destination, sync: true, mkdir: true });
  return pino({ level, base: undefined }, stream);
}

export function createSilentLogger(): Logger {
  return pino({ level: 'silent' });
}
