// Names of everything one fleet run creates. The run id embeds the owning pid (base 36), so a later run can tell
// leftovers of a dead run from a live one, and two runs never collide. Interface names stay within 15 bytes.
import { randomBytes } from 'node:crypto';

export const fleetPrefix = 'rpf-';

export function createRunId(pid = process.pid): string {
  const rand = [...randomBytes(3)].map((b) => (b % 36).toString(36)).join('');
  return `${rand}${pid.toString(36)}`;
}

export function toNetnsName(runId: string, nodeName: string): string {
  return `${fleetPrefix}${runId}-${nodeName}`;
}

export function toBridgeName(runId: string): string {
  return `${fleetPrefix}${runId}-b`;
}

export function toVethName(runId: string, index: number, side: 'host' | 'node'): string {
  return `${fleetPrefix}${runId}-${index}${side === 'node' ? 'n' : ''}`;
}

/** The pid that owns a fleet resource name, or undefined when the name is not one of ours. */
export function parseOwnerPid(name: string): number | undefined {
  const match = /^rpf-[0-9a-z]{3}([0-9a-z]+)-/.exec(name);
  if (!match?.[1]) return undefined;
  const pid = Number.parseInt(match[1], 36);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

/** tbf rate in bit/s for a link of `mbps` MB/s (MB = 10^6 bytes). */
export function toTbfRateBits(mbps: number): number {
  return Math.max(8000, Math.round(mbps * 1e6 * 8));
}
