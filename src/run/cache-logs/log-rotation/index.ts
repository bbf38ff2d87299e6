// Pure: following a remote log across rotations (copytruncate, rename + create, compressed, dated). The ssh side
// is remote-log-files.ts and capture-logs.ts.
export { assembleLogSlice, findFirstDifference } from './assemble-log-slice.js';
export type { GenerationPiece, SlicePart } from './assemble-log-slice.js';
export { createGeneration, detectRotation } from './detect-rotation.js';
export type { LogGeneration } from './detect-rotation.js';
export { findRotatedFiles, findUnplacedFiles } from './find-rotated-files.js';
export { FINGERPRINT_LIMIT_BYTES, parseFileRecords } from './parse-file-records.js';
export type { Compression, RemoteFileRecord } from './parse-file-records.js';
