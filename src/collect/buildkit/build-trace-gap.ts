import { totalLengthMs } from '../../shared/intervals.js';
import type { TargetTrace, UploadKind } from '../types.js';

// Explains total − build: setup before the first step (capabilities, frontend, auth, context) and the tail
// after the last step (image export, push, cache export), with the wall time spent uploading (overlapping
// uploads counted once) and bytes per upload kind.

export interface TraceGap {
  setupSeconds: number;
  /** From the last step's end to the record's end. */
  exportSeconds: number;
  /** Wall time covered by at least one upload span. */
  uploadSeconds: number;
  uploadSecondsByKind: Record<UploadKind, number>;
  /** Known bytes per kind; uploads of unknown size are counted in `unknownSizeUploads`, never as 0. */
  uploadBytesByKind: Record<UploadKind, number>;
  unknownSizeUploads: number;
}

export function buildTraceGap(trace: TargetTrace): TraceGap {
  const kinds: UploadKind[] = ['image', 'cache', 'unknown'];
  const bytes = { image: 0, cache: 0, unknown: 0 };
  for (const upload of trace.uploads) if (upload.bytes !== null) bytes[upload.kind] += upload.bytes;
  const buildStart = trace.buildStartMs ?? trace.endMs;
  const buildEnd = trace.buildEndMs ?? trace.endMs;
  return {
    setupSeconds: Math.max(0, buildStart - trace.startMs) / 1000,
    exportSeconds: Math.max(0, trace.endMs - buildEnd) / 1000,
    uploadSeconds: toCoveredMs(trace.uploads) / 1000,
    uploadSecondsByKind: Object.fromEntries(
      kinds.map((kind) => [kind, toCoveredMs(trace.uploads.filter((upload) => upload.kind === kind)) / 1000]),
    ) as Record<UploadKind, number>,
    uploadBytesByKind: bytes,
    unknownSizeUploads: trace.uploads.filter((upload) => upload.bytes === null).length,
  };
}

/** Wall time covered by at least one of the uploads, overlaps counted once. */
function toCoveredMs(uploads: readonly { startMs: number; endMs: number }[]): number {
  return totalLengthMs(uploads.map((upload) => [upload.startMs, upload.endMs]));
}
