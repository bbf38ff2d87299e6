// The vertices of one target's `--progress=rawjson` status stream (status-<target>.jsonl) with their times: each
// vertex is reported many times as it progresses; the earliest `started`, the latest `completed` and any `cached`
// are kept. Times are the builder's clock (BuildKit stamps them). Pure.

export interface StatusVertex {
  digest: string;
  name: string;
  startedMs: number | null;
  completedMs: number | null;
  cached: boolean;
}

interface RawVertex {
  digest?: unknown;
  name?: unknown;
  cached?: unknown;
  started?: unknown;
  completed?: unknown;
}

const toMs = (value: unknown): number | null => {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) && ms > 0 ? ms : null;
};

const earliest = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));
const latest = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

export function parseStatusVertices(text: string): StatusVertex[] {
  const vertices = new Map<string, StatusVertex>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('{') || !line.includes('"vertexes"')) continue;
    let raw: RawVertex[];
    try {
      const status = JSON.parse(line) as { vertexes?: unknown };
      raw = Array.isArray(status.vertexes) ? (status.vertexes as RawVertex[]) : [];
    } catch {
      continue;
    }
    for (const vertex of raw) {
      if (typeof vertex.digest !== 'string' || typeof vertex.name !== 'string') continue;
      const known = vertices.get(vertex.digest);
      const next: StatusVertex = {
        digest: vertex.digest,
        name: vertex.name,
        startedMs: earliest(known?.startedMs ?? null, toMs(vertex.started)),
        completedMs: latest(known?.completedMs ?? null, toMs(vertex.completed)),
        cached: (known?.cached ?? false) || vertex.cached === true,
      };
      vertices.set(vertex.digest, next);
    }
  }
  return [...vertices.values()];
}

/** `[stage 2/3] RUN make -j8` → `make -j8`; undefined when the vertex is not a RUN step. */
export function toRunCommand(name: string): string | undefined {
  const match = /^(?:\[[^\]]*\] )*RUN (.*)$/s.exec(name);
  if (!match) return undefined;
  // RUN flags (--mount=…, --network=…) come first in the name; the process never sees them.
  return (match[1] ?? '').replace(/^(?:--\S+\s+)*/, '').trim();
}
