import type { StreamStats } from '../../artifacts/index.js';
import type { RegistrySummary } from '../logs/summarize-registry.js';
import type { ReadRegistryLogOptions } from './read-registry-log.js';

// Messages between a report and its registry-log thread (read-registry-log-on-thread.ts, registry-thread-worker.ts).
// Both ends are this program, built together; the reply is checked for its shape before use.

export interface RegistryThreadRequest {
  options: Omit<ReadRegistryLogOptions, 'keep'>;
}

export type RegistryThreadReply = { stats: StreamStats; summary: RegistrySummary } | { error: string };
