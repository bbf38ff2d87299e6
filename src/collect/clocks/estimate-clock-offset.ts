import type { ClockReading } from '../../artifacts/index.js';
import { parseMetrics } from '../node-exporter/parse-metrics.js';

// A host's clock against this workstation's, from one reading of it taken between two local instants: the remote
// time was read somewhere in [sentMs, receivedMs], so offset = remote − midpoint, give or take half the round trip.

export interface ClockProbe {
  /** Workstation clock just before the request left. */
  sentMs: number;
  /** Workstation clock just after the answer arrived. */
  receivedMs: number;
  /** The host's clock, read while the request was in flight. */
  remoteMs: number;
}

export interface ClockOffset {
  offsetMs: number;
  uncertaintyMs: number;
}

/** Offsets beyond this are warned about loudly: they move a trace or a log line past a short target. */
export const CLOCK_WARNING_MS = 1000;

export function toClockOffset({ sentMs, receivedMs, remoteMs }: ClockProbe): ClockOffset {
  const roundTrip = Math.max(0, receivedMs - sentMs);
  return {
    offsetMs: round(remoteMs - (sentMs + roundTrip / 2)),
    uncertaintyMs: round(roundTrip / 2),
  };
}

/** `date +%s.%N` output (GNU date: seconds and nanoseconds) → ms; undefined for anything else. */
export function parseDateSeconds(stdout: string): number | undefined {
  const text = stdout.trim();
  if (!/^\d{9,11}(\.\d{1,9})?$/.test(text)) return undefined;
  return Number(text) * 1000;
}

/** node_exporter's `node_time_seconds` (the time collector) → ms; undefined when the scrape lacks it. */
export function findNodeTimeMs(metricsText: string): number | undefined {
  const value = parseMetrics(metricsText, 'node_time_seconds').families.get('node_time_seconds')?.samples[0]
    ?.value;
  return value !== undefined && Number.isFinite(value) ? value * 1000 : undefined;
}

/** One figure per host: the mean of its successful readings (before and after), the larger uncertainty. */
export function averageReadings(readings: readonly ClockReading[]): Map<string, ClockOffset> {
  const byHost = new Map<string, ClockReading[]>();
  for (const reading of readings) {
    if (reading.offsetMs === null || reading.uncertaintyMs === null) continue;
    byHost.set(reading.host, [...(byHost.get(reading.host) ?? []), reading]);
  }
  return new Map(
    [...byHost].map(([host, list]) => [
      host,
      {
        offsetMs: round(list.reduce((sum, r) => sum + (r.offsetMs ?? 0), 0) / list.length),
        uncertaintyMs: Math.max(...list.map((r) => r.uncertaintyMs ?? 0)),
      },
    ]),
  );
}

export function describeOffset({ offsetMs, uncertaintyMs }: ClockOffset): string {
  const direction = offsetMs >= 0 ? 'ahead of' : 'behind';
  return `${formatSeconds(Math.abs(offsetMs))} ${direction} this workstation (±${formatSeconds(uncertaintyMs)})`;
}

/** What a user must hear about the readings: failed ones, offsets over 1 s, and clocks that moved during the run. */
export function describeClockProblems(readings: readonly ClockReading[]): string[] {
  const problems: string[] = [];
  for (const reading of readings) {
    const what = `${reading.role} ${reading.host}`;
    if (reading.offsetMs === null || reading.uncertaintyMs === null) {
      problems.push(
        `clock of ${what} not measured ${reading.phase} the run (${reading.source}): ${reading.error ?? 'no answer'}`,
      );
      continue;
    }
    if (Math.abs(reading.offsetMs) > CLOCK_WARNING_MS && reading.phase === 'before')
      problems.push(
        `clock of ${what} is ${describeOffset({ offsetMs: reading.offsetMs, uncertaintyMs: reading.uncertaintyMs })}, by ${reading.source}; fix its time sync (chrony or systemd-timesyncd)`,
      );
  }
  for (const host of new Set(readings.map((r) => r.host))) {
    const before = readings.find((r) => r.host === host && r.phase === 'before')?.offsetMs;
    const after = readings.find((r) => r.host === host && r.phase === 'after')?.offsetMs;
    if (before == null || after == null || Math.abs(after - before) <= CLOCK_WARNING_MS) continue;
    const role = readings.find((r) => r.host === host)?.role ?? 'host';
    problems.push(
      `clock of ${role} ${host} moved ${formatSeconds(after - before)} during the run (from ${formatSeconds(before)} to ${formatSeconds(after)} off this workstation): it was stepped; times from it are uncertain by that much`,
    );
  }
  return problems;
}

function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
