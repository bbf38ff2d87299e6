import { pino } from 'pino';
import type { Logger } from '../../src/shared/logger.js';

// A logger that writes nothing, for tests that need one but assert on other things.
export function createSilentLogger(): Logger {
  return pino({ level: 'silent' });
}
