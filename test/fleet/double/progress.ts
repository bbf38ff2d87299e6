// The build's status stream: `--progress=rawjson` writes one `client.SolveStatus` JSON per line to stderr
// (buildkit.md §3.5); `plain` (and `auto` without a TTY) writes BuildKit-like `#N` lines; `quiet` nothing.
import { toGoRfc3339Nano } from '../zot-session-line.js';

export type ProgressMode = 'auto' | 'plain' | 'tty' | 'quiet' | 'rawjson';
export const progressModes: readonly ProgressMode[] = ['auto', 'plain', 'tty', 'quiet', 'rawjson'];

interface Vertex {
  digest: string;
  inputs: string[];
  name: string;
  startedMs?: number;
  completedMs?: number;
  cached?: boolean;
  error?: string;
}

export interface ProgressWriter {
  vertex: (vertex: Vertex) => void;
  status: (options: {
    vertex: string;
    id: string;
    startedMs: number;
    completedMs?: number;
    total?: number;
    current?: number;
  }) => void;
  log: (options: { vertex: string; text: string }) => void;
}

const iso = (ms: number | undefined) => (ms === undefined ? undefined : toGoRfc3339Nano(ms));

export function createProgressWriter(options: {
  mode: ProgressMode;
  write: (line: string) => void;
  prefix?: string | undefined;
  numbers?: Map<string, number>;
}): ProgressWriter {
  const { mode, write } = options;
  const label = (name: string) => {
    if (!options.prefix) return name;
    return name.startsWith('[') ? `[${options.prefix} ${name.slice(1)}` : `[${options.prefix}] ${name}`;
  };
  const numbers = options.numbers ?? new Map<string, number>();
  const numberOf = (digest: string) => {
    if (!numbers.has(digest)) numbers.set(digest, numbers.size + 1);
    return numbers.get(digest)!;
  };
  if (mode === 'rawjson') {
    return {
      vertex: (v) =>
        write(
          JSON.stringify({
            vertexes: [
              {
                digest: v.digest,
                inputs: v.inputs,
                name: label(v.name),
                started: iso(v.startedMs),
                completed: iso(v.completedMs),
                cached: v.cached || undefined,
                error: v.error,
              },
            ],
          }),
        ),
      status: (s) =>
        write(
          JSON.stringify({
            statuses: [
              {
                id: s.id,
                vertex: s.vertex,
                name: s.id,
                total: s.total,
                current: s.current ?? 0,
                timestamp: iso(s.completedMs ?? s.startedMs),
                started: iso(s.startedMs),
                completed: iso(s.completedMs),
              },
            ],
          }),
        ),
      log: (l) =>
        write(
          JSON.stringify({
            logs: [
              {
                vertex: l.vertex,
                stream: 1,
                data: Buffer.from(l.text).toString('base64'),
                timestamp: iso(Date.now()),
              },
            ],
          }),
        ),
    };
  }
  if (mode === 'quiet') return { vertex: () => undefined, status: () => undefined, log: () => undefined };
  return {
    vertex: (v) => {
      const n = numberOf(v.digest);
      if (v.completedMs === undefined) write(`#${n} ${label(v.name)}`);
      else if (v.error) write(`#${n} ERROR: ${v.error}`);
      else if (v.cached) write(`#${n} CACHED`);
      else write(`#${n} DONE ${(((v.completedMs ?? 0) - (v.startedMs ?? 0)) / 1000).toFixed(1)}s`);
    },
    status: (s) => {
      if (s.completedMs !== undefined)
        write(`#${numberOf(s.vertex)} ${s.id} ${((s.completedMs - s.startedMs) / 1000).toFixed(1)}s done`);
    },
    log: (l) => write(`#${numberOf(l.vertex)} ${l.text.trimEnd()}`),
  };
}
