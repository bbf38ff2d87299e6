// A build record's status log (`application/vnd.buildkit.status.v0`, BuildKit v0.32.2
// solver/llbsolver/history/buildhistory.go ImportStatus): repeated [4-byte little-endian length][StatusResponse
// protobuf]. Only the vertices are decoded (StatusResponse field 1: Vertex digest 1, name 3, cached 4, started 5,
// completed 6, error 7; Timestamp seconds 1, nanos 2), and written as the lines `buildx --progress rawjson` prints
// ({"vertexes":[…]}), so status-<target>.jsonl of an imported record reads as a run's own. Pure.

export interface StatusLogVertex {
  digest: string;
  name: string;
  cached: boolean;
  started?: string;
  completed?: string;
  error?: string;
}

interface Field {
  number: number;
  /** varint value, or the bytes of a length-delimited field. */
  value: bigint | Buffer;
}

/** The fields of one protobuf message; throws on a wire type it cannot skip or a field that runs past the end. */
function readFields(bytes: Buffer): Field[] {
  const fields: Field[] = [];
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = bytes[at];
      if (byte === undefined || shift > 63n) throw new Error(`varint runs past byte ${at}`);
      at += 1;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
    }
  };
  while (at < bytes.length) {
    const key = varint();
    const number = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 0) fields.push({ number, value: varint() });
    else if (wire === 2) {
      const length = Number(varint());
      if (at + length > bytes.length) throw new Error(`field ${number} runs past the message end`);
      fields.push({ number, value: bytes.subarray(at, at + length) });
      at += length;
    } else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else throw new Error(`wire type ${wire} of field ${number}`);
  }
  return fields;
}

function toTime(bytes: Buffer): string {
  let seconds = 0n;
  let nanos = 0n;
  for (const field of readFields(bytes))
    if (typeof field.value === 'bigint') {
      if (field.number === 1) seconds = field.value;
      if (field.number === 2) nanos = field.value;
    }
  const ms = Number(seconds) * 1000 + Math.floor(Number(nanos) / 1e6);
  const iso = new Date(ms).toISOString();
  // Nanoseconds kept, as Go's RFC 3339 times in rawjson carry them.
  return `${iso.slice(0, 19)}.${String(nanos).padStart(9, '0')}Z`;
}

function toVertex(bytes: Buffer): StatusLogVertex {
  const vertex: StatusLogVertex = { digest: '', name: '', cached: false };
  for (const { number, value } of readFields(bytes)) {
    if (typeof value === 'bigint') {
      if (number === 4) vertex.cached = value !== 0n;
      continue;
    }
    if (number === 1) vertex.digest = value.toString('utf8');
    else if (number === 3) vertex.name = value.toString('utf8');
    else if (number === 5) vertex.started = toTime(value);
    else if (number === 6) vertex.completed = toTime(value);
    else if (number === 7) vertex.error = value.toString('utf8');
  }
  return vertex;
}

/** The vertex updates of a status log, one array per StatusResponse that carries any; throws on damage. */
export function parseStatusLog(blob: Buffer): StatusLogVertex[][] {
  const updates: StatusLogVertex[][] = [];
  let at = 0;
  while (at < blob.length) {
    if (at + 4 > blob.length) throw new Error(`a length prefix cut at byte ${at}`);
    const length = blob.readUInt32LE(at);
    const end = at + 4 + length;
    if (end > blob.length) throw new Error(`a ${length}-byte message at byte ${at} runs past the end`);
    const vertices = readFields(blob.subarray(at + 4, end))
      .filter((field) => field.number === 1 && field.value instanceof Buffer)
      .map((field) => toVertex(field.value as Buffer));
    if (vertices.length > 0) updates.push(vertices);
    at = end;
  }
  return updates;
}

/** The updates as rawjson lines (status-<target>.jsonl). */
export function renderStatusLines(updates: readonly StatusLogVertex[][]): string {
  return updates.map((vertexes) => `${JSON.stringify({ vertexes })}\n`).join('');
}
