import { createHash } from 'node:crypto';

// The ids `export --otlp` gives a run's trace and spans: SHA-256 of the run's lane and stamp (the trace) and of the
// trace id and a span's place in the run (`node/strix`, `target/pytorch`, `phase/pytorch/2`, `step/pytorch/5`),
// cut to 16 and 8 bytes. The same run exported twice sends the same ids (docs/otlp.md). Pure.

const SCHEME = 'rocm-perf otlp v1';

function toHexDigest(text: string, bytes: number): string {
  const hex = createHash('sha256')
    .update(text)
    .digest('hex')
    .slice(0, bytes * 2);
  // An all-zero id is invalid in OTLP; 2^-64 odds, but the answer must still be an id.
  return /^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}

export function buildOtlpTraceId({ lane, stamp }: { lane: string; stamp: string }): string {
  return toHexDigest(`${SCHEME}\0${lane}\0${stamp}`, 16);
}

export function buildOtlpSpanId(traceId: string, place: string): string {
  return toHexDigest(`${SCHEME}\0${traceId}\0${place}`, 8);
}
