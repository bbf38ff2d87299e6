// What the native line scanners offer (src/collect/native/*.c, built into build/Release/rocm_perf_scan.node). Pure
// parsers receive a LineScanner from their caller (the log readers load it) and fall back to their JavaScript
// paths without one, with identical results.

/** An opaque scanner object: its intern table and timestamp cache live in native memory. */
export interface ScannerHandle {
  readonly __scanner: unique symbol;
}

/** A log_format template for createTemplateScanner: literals as UTF-8 bytes, and per field how to read it. */
export interface TemplateScannerSpec {
  /** n + 1 literals around n fields. */
  literals: Buffer[];
  /** 1 when the field's value is a JSON string, 0 when it is bare. */
  quoted: number[];
  /** Decode.* per field. */
  decoders: number[];
  /** The WebDAV location (for Decode.sccachePath). */
  davRoot: Buffer;
}

export interface LineScanner {
  createZotScanner(): ScannerHandle;
  createTemplateScanner(spec: TemplateScannerSpec): ScannerHandle;
  /** Reads the lines of bytes[from, to) (to just past a newline) into rows; returns how many rows it wrote. */
  scan(handle: ScannerHandle, bytes: Buffer, from: number, to: number, rows: Float64Array): number;
}
